#!/usr/bin/env bash

source "$(dirname "$0")/../../benchmark_lib.sh"

check_env_vars MODEL TP EP_SIZE DP_ATTENTION CONC ISL OSL RESULT_FILENAME

SERVER_LOG=/workspace/server.log
PORT=8888
EXTRA_CONFIG_FILE="dsr1-fp4-mtp.yml"

cat > $EXTRA_CONFIG_FILE << EOF2
cuda_graph_config:
    enable_padding: true
    max_batch_size: 256
enable_attention_dp: $DP_ATTENTION
speculative_config:
    decoding_type: MTP
    num_nextn_predict_layers: 3
kv_cache_config:
    dtype: fp8
EOF2

set -x
PYTHONNOUSERSITE=1 mpirun -n 1 --oversubscribe --allow-run-as-root \
    trtllm-serve $MODEL --port=$PORT \
    --trust_remote_code \
    --backend=pytorch \
    --max_seq_len=$(( ISL + OSL + 256 )) \
    --tp_size=$TP --ep_size=$EP_SIZE \
    --extra_llm_api_options=$EXTRA_CONFIG_FILE > $SERVER_LOG 2>&1 &

SERVER_PID=$!

wait_for_server_ready --port "$PORT" --server-log "$SERVER_LOG" --server-pid "$SERVER_PID"

run_benchmark_serving \
    --model "$MODEL" \
    --port "$PORT" \
    --backend openai \
    --input-len "$ISL" \
    --output-len "$OSL" \
    --max-concurrency "$CONC" \
    --result-filename "$RESULT_FILENAME" \
    --result-dir /workspace/ \
    --use-chat-template
