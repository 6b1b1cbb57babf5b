"""A plain MLX Python generation loop for the benchmark's llama-like model: the
peer that shows what MLX itself does with the same weights (no ExecuTorch, no
delegate). It reads a bundle of bench/llm.py (our parameter names, safetensors)
and uses MLX's fused kernels: rms_norm, rope, scaled_dot_product_attention.

    python bench/llm_mlx.py BUNDLE_DIR [--dtype fp32|bf16] [--prompt-len N] [--new-tokens N]

Prints one JSON line: prefill and decode tokens/s and the generated ids."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import mlx.core as mx


class Llama:
    def __init__(self, weights: dict, config: dict, max_seq_len: int, dtype):
        self.freqs = 1.0 / weights.pop("inv_freq")  # float32: what mx.fast.rope takes
        self.w = {k: v.astype(dtype) for k, v in weights.items()}
        self.c = config
        self.dtype = dtype
        shape = (1, config["num_kv_heads"], max_seq_len, config["head_dim"])
        self.caches = [
            [mx.zeros(shape, dtype), mx.zeros(shape, dtype)] for _ in range(config["num_layers"])
        ]

    def _linear(self, name: str, x):
        return x @ self.w[name + ".weight"].T

    def _attention(self, i: int, x, pos: int):
        c, length = self.c, x.shape[1]
        p = f"layers.{i}.attn"
        heads = lambda t, n: t.reshape(1, length, n, c["head_dim"]).transpose(0, 2, 1, 3)
        q = heads(self._linear(p + ".q", x), c["num_heads"])
        k = heads(self._linear(p + ".k", x), c["num_kv_heads"])
        v = heads(self._linear(p + ".v", x), c["num_kv_heads"])
        rope = dict(traditional=False, base=None, scale=1.0, offset=pos, freqs=self.freqs)
        q = mx.fast.rope(q, c["rotary_dims"], **rope)
        k = mx.fast.rope(k, c["rotary_dims"], **rope)
        cache = self.caches[i]
        cache[0][:, :, pos : pos + length] = k
        cache[1][:, :, pos : pos + length] = v
        keys, values = cache[0][:, :, : pos + length], cache[1][:, :, : pos + length]
        out = mx.fast.scaled_dot_product_attention(
            q, keys, values, scale=c["head_dim"] ** -0.5, mask="causal" if length > 1 else None
        )
        return self._linear(p + ".o", out.transpose(0, 2, 1, 3).reshape(1, length, -1))

    def __call__(self, tokens, pos: int):
        c, eps = self.c, self.c["norm_eps"]
        x = self.w["embed.weight"][tokens]
        for i in range(c["num_layers"]):
            p = f"layers.{i}"
            x = x + self._attention(
                i, mx.fast.rms_norm(x, self.w[p + ".attn_norm.weight"], eps), pos
            )
            h = mx.fast.rms_norm(x, self.w[p + ".mlp_norm.weight"], eps)
            gated = (
                mx.sigmoid(g := self._linear(p + ".mlp.gate", h))
                * g
                * self._linear(p + ".mlp.up", h)
            )
            x = x + self._linear(p + ".mlp.down", gated)
        x = mx.fast.rms_norm(x[:, -1], self.w["norm.weight"], eps)
        return mx.argmax(self._linear("lm_head", x), axis=-1)


def generate(model: Llama, prompt: list[int], new_tokens: int) -> tuple[list[int], float, float]:
    start = time.perf_counter()
    token = model(mx.array([prompt]), 0).item()
    first = time.perf_counter() - start
    ids, pos = [token], len(prompt)
    start = time.perf_counter()
    for _ in range(new_tokens - 1):
        token = model(mx.array([[token]]), pos).item()
        ids.append(token)
        pos += 1
    return ids, first, time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("bundle", type=Path)
    parser.add_argument("--dtype", choices=("fp32", "bf16"), default="fp32")
    parser.add_argument("--prompt-len", type=int, default=64)
    parser.add_argument("--new-tokens", type=int, default=64)
    parser.add_argument("--max-seq-len", type=int, default=256)
    args = parser.parse_args(argv)
    config = json.loads((args.bundle / "config.json").read_text())
    if config["family"] != "llama" or config["rope_scaling"] != 1.0:
        raise SystemExit("llm_mlx.py runs the benchmark's plain llama config only")
    dtype = mx.float32 if args.dtype == "fp32" else mx.bfloat16
    model = Llama(
        mx.load(str(args.bundle / "weights.safetensors")), config, args.max_seq_len, dtype
    )
    prompt = [(7 * i + 3) % config["vocab_size"] for i in range(args.prompt_len)]
    generate(model, prompt, 4)  # warm-up: kernels built, memory pooled
    ids, first, decode = generate(model, prompt, args.new_tokens)
    print(
        json.dumps(
            {
                "device": str(mx.default_device()),
                "prefill_tok_s": args.prompt_len / first,
                "decode_tok_s": (args.new_tokens - 1) / decode,
                "ids": ids,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
