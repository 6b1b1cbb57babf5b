"""Exporting large language models to run on the MLX delegate."""
