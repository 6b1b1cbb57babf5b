"""LLM inference with the KV cache inside the delegate: our decoder module for
local Hugging Face checkpoints, export to one `.pte`, and generation.

    python -m mlx_delegate.llm export --model DIR -o model.pte
    python -m mlx_delegate.llm generate model.pte --tokenizer DIR --prompt "..."
"""
