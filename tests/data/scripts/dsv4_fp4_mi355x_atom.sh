#!/usr/bin/env bash

source "$(dirname "$0")/../../benchmark_lib.sh"

check_env_vars MODEL TP CONC ISL OSL RESULT_FILENAME

SERVER_LOG=/workspace/server.log
PORT=${PORT:-8888}
EXTRA_ARGS=(--block-size 16 --max-num-seqs 256)

case "$TP" in
  8)
    KV_ARGS="--kv_cache_dtype fp8"
    ;;
  4|2)
    KV_ARGS="--kv_cache_dtype bf16"
    ;;
esac

nohup python3 -m atom.entrypoints.openai_server \
    --model "$MODEL" \
    --server-port $PORT \
    -tp $TP \
    $KV_ARGS \
    --hf-overrides '{"use_index_cache": true, "index_topk_freq": 4}' \
    "${EXTRA_ARGS[@]}" > "$SERVER_LOG" 2>&1 &

SERVER_PID=$!

wait_for_server_ready --port "$PORT" --server-log "$SERVER_LOG" --server-pid "$SERVER_PID"

run_benchmark_serving \
    --model "$MODEL" \
    --port "$PORT" \
    --backend vllm \
    --input-len "$ISL" \
    --output-len "$OSL" \
    --max-concurrency "$CONC" \
    --num-prompts $(( CONC * 10 )) \
    --result-filename "$RESULT_FILENAME" \
    --result-dir /workspace/
