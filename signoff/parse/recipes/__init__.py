"""Recipes a launch is compared with: upstream recipe documents (vllm-project/recipes YAML,
Markdown and MDX, published pages, SGLang cookbook configs) and multi-node srt-slurm recipes."""
