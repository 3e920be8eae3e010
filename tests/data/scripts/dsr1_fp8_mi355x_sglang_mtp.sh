#!/usr/bin/env bash
# Simple enough for bashlex: no [[ ]], no arithmetic, no arrays.

source "$(dirname "$0")/../../benchmark_lib.sh"

check_env_vars MODEL TP CONC ISL OSL RANDOM_RANGE_RATIO RESULT_FILENAME

SERVER_LOG=/workspace/server.log
PORT=8888

if [ "$ISL" = "8192" ]; then
    CHUNKED_PREFILL=16384
else
    CHUNKED_PREFILL=8192
fi

export SGLANG_USE_AITER=1

python3 -m sglang.launch_server \
    --model-path $MODEL \
    --host=0.0.0.0 \
    --port $PORT \
    --tp $TP \
    --trust-remote-code \
    --chunked-prefill-size $CHUNKED_PREFILL \
    --attention-backend aiter \
    --speculative-algorithm NEXTN \
    --speculative-num-steps 3 \
    --speculative-eagle-topk 1 \
    --speculative-num-draft-tokens 4 \
    --mem-fraction-static 0.8 > $SERVER_LOG 2>&1 &

SERVER_PID=$!

wait_for_server_ready --port "$PORT" --server-log "$SERVER_LOG" --server-pid "$SERVER_PID"

run_benchmark_serving \
    --model "$MODEL" \
    --port "$PORT" \
    --backend vllm \
    --input-len "$ISL" \
    --output-len "$OSL" \
    --random-range-ratio "$RANDOM_RANGE_RATIO" \
    --max-concurrency "$CONC" \
    --result-filename "$RESULT_FILENAME" \
    --result-dir /workspace/ \
    --use-chat-template
