#!/usr/bin/env bash
# Arguments assembled in variables; the launch hides inside $( ... ).

source "$(dirname "$0")/../../benchmark_lib.sh"

SPEC_CONFIG='{"method": "eagle3", "model": "nvidia/MiniMax-M3-Eagle3", "num_speculative_tokens": 3}'
HF_OVERRIDES="{\"text_config\": {\"use_index_cache\": true, \"index_topk_freq\": 4}}"
SERVE_ARGS="--trust-remote-code --max-num-batched-tokens ${MAX_BATCHED_TOKENS:-16384}"

SERVER_PID=$(env VLLM_ATTENTION_BACKEND=FLASHINFER python3 -m vllm.entrypoints.openai.api_server \
    --model "$MODEL" --tensor-parallel-size "$TP" $SERVE_ARGS \
    --speculative-config "$SPEC_CONFIG" \
    --hf-overrides "$HF_OVERRIDES" > /workspace/server.log 2>&1 & echo $!)

run_benchmark_serving --model "$MODEL" --max-concurrency "$CONC" --use-chat-template
