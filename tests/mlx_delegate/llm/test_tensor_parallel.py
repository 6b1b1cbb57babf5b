"""Tensor parallelism over processes (mlx_delegate/llm/tensor_parallel.py,
launch.py): `export --tp 2` run as two local processes on MLX's ring backend
gives the greedy tokens of one rank (transformers' generate, which the one-rank
program's equal: test_generate.py, test_moe.py) in fp32, for the tiny llama (its
vocabulary split over the ranks; run by `generate --tp 2` and by `mlxd-generate
--tp 2`) and tiny mixtures of experts (by `mlxd-generate --tp 2`); a program for
two ranks refuses to run alone; a rank that dies ends the other.

Each test writes its own checkpoint, so xdist spreads the exports."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from mlx_delegate.llm import launch, tensor_parallel, tiny

pytestmark = pytest.mark.slow  # among the suites that take most of make test

ROOT = Path(__file__).resolve().parents[3]
PROMPT = "the quick brown fox"
NEW_TOKENS = 24


def _exported(directory: Path, name: str, tp: int, **options) -> Path:
    from mlx_delegate.llm.export import export_program

    result = export_program(directory, directory / name, max_seq_len=64, tp=tp, **options)
    assert result.delegates == 1 and not result.ops_outside, result
    return result.path


def _prompt_ids(directory: Path) -> list[int]:
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(directory / "tokenizer.json")).encode(PROMPT).ids


def _transformers_tokens(model, directory: Path) -> list[int]:
    """Greedy tokens of transformers' generate: those of the program exported
    for one rank (tests/mlx_delegate/llm/test_generate.py, test_moe.py)."""
    prompt = torch.tensor([_prompt_ids(directory)])
    with torch.no_grad():
        out = model.generate(prompt, do_sample=False, max_new_tokens=NEW_TOKENS, eos_token_id=None)
    return out[0, prompt.shape[1] :].tolist()


def _generate(llm_main, pte: Path, directory: Path, *options: str) -> tuple[int, str, str]:
    """`generate` through the CLI's main in this process (conftest.py), which with
    --tp starts the ranks' processes."""
    return llm_main("generate", pte, "--tokenizer", directory, "--prompt", PROMPT,
                    "--max-new-tokens", NEW_TOKENS, "--ids", "--ignore-eos", "--device", "cpu",
                    *options)  # fmt: skip


def _ids(stdout: str) -> list[int]:
    return [int(t) for t in re.search(r"^ids: (.*)$", stdout, re.M).group(1).split()]


def _two_ranks(model, directory: Path, generate, **options) -> tuple[Path, list[int]]:
    """The program for two ranks and its tokens, which `generate` (the program, the
    checkpoint -> what rank 0 printed) gives and which are checked: (its path, the tokens)."""
    one = _transformers_tokens(model, directory)
    two = _exported(directory, "two.pte", tp=2, **options)
    assert all(tensor_parallel.data_path(two, r, 2).is_file() for r in (0, 1))
    out = generate(two, directory)
    assert out.count("ids:") == 1, out  # rank 0 alone prints
    assert _ids(out) == one
    assert len(set(one)) > 5  # the tokens vary: a wrong sum would show
    return two, one


def _python_ranks(llm_main):
    """`generate --tp 2`: the CLI starts the two ranks' processes."""

    def generate(two: Path, directory: Path) -> str:
        code, out, err = _generate(llm_main, two, directory, "--tp", "2")
        assert code == 0, err[-3000:]
        return out

    return generate


def _cpp_ranks(two: Path, directory: Path) -> str:
    """`mlxd-generate --tp 2`: two C++ processes, no Python in them (nor its 5-10 s of
    imports a rank)."""
    prompt = " ".join(map(str, _prompt_ids(directory)))
    done = _mlxd_generate(two, "--prompt-ids", prompt, "--tp", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def test_two_ranks_of_the_tiny_llama_generate_one_ranks_tokens(tmp_path, llm_main):
    """Through both generators; the program for two ranks refuses to run in
    a group of one."""
    model = tiny.write_checkpoint(tmp_path, "llama", seed=3)
    tiny.write_tokenizer(tmp_path, model.config.vocab_size)
    two, one = _two_ranks(model, tmp_path, _python_ranks(llm_main))
    code, _, err = _generate(llm_main, two, tmp_path)  # no --tp: a group of one
    assert code == 1
    assert "is a program for 2 ranks, this process is one of 1: generate --tp 2" in err, err

    cpp = _cpp_ranks(two, tmp_path)
    assert cpp.count("ids:") == 1, cpp
    assert _ids(cpp) == one
    cpp_alone = _mlxd_generate(two, "--prompt-ids", "1 2")
    assert cpp_alone.returncode == 1
    assert "is a program for 2 ranks, this process is one of 1: mlxd-generate --tp 2" in (
        cpp_alone.stderr
    )


def _mlxd_generate(pte: Path, *options: str) -> subprocess.CompletedProcess:
    exe = Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime")) / "mlxd-generate"
    assert exe.is_file(), f"{exe} was not built (make runtime)"
    return subprocess.run(
        [str(exe), str(pte), "--max-new-tokens", str(NEW_TOKENS), "--ignore-eos", "--device",
         "cpu", *options],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.mark.parametrize(
    "family, vocab, experts",
    [("qwen3_moe", "replicated", "spread"), ("deepseek_v3", "split", "hidden")],
)
def test_two_ranks_of_a_tiny_mixture_of_experts_generate_one_ranks_tokens(
    tmp_path, family, vocab, experts
):
    """The router replicated (deepseek_v3's group-limited one too), the
    experts split as `experts` says (each expert's hidden units, or each
    rank half the experts whole), the embedding and LM head as `vocab` says;
    deepseek_v3's latent attention split by heads (its query and key-value
    expansions' rows, the output's columns, the cache of its heads), the
    latent projections replicated. Run by the C++ generator: the llama's test
    runs the CLI's ranks, which run the same program the same way."""
    model = tiny.write_checkpoint(tmp_path, family, seed=1)
    tiny.write_tokenizer(tmp_path, model.config.vocab_size)
    _two_ranks(model, tmp_path, _cpp_ranks, tp_vocab=vocab, tp_experts=experts)


def test_a_model_that_does_not_split_is_refused(tmp_path):
    tiny.write_checkpoint(tmp_path, "llama", num_key_value_heads=1)
    with pytest.raises(tensor_parallel.TensorParallelError, match="1 key-value heads"):
        _exported(tmp_path, "two.pte", tp=2)


def test_a_rank_that_dies_ends_the_others_with_a_message(capsys):
    """The ranks sum once; then rank 1 dies and rank 0 waits for it in the
    next sum, where it would wait forever (or fail): the launcher ends it."""
    dies_after_one_sum = (
        "import os, signal, mlx.core as mx\n"
        "group = mx.distributed.init(strict=True, backend='ring')\n"
        "mx.eval(mx.distributed.all_sum(mx.ones(4), group=group))\n"
        "if os.environ['MLX_RANK'] == '1': os.kill(os.getpid(), signal.SIGKILL)\n"
        "mx.eval(mx.distributed.all_sum(mx.ones(4), group=group))\n"
        "signal.pause()\n"
    )
    start = time.monotonic()
    code = launch.start_ranks([sys.executable, "-c", dies_after_one_sum], 2, "ring")
    assert code == 1
    assert time.monotonic() - start < 60
    err = capsys.readouterr().err
    assert re.search(r"rank \d of 2 ended with .*: ending the other ranks", err), err


def test_a_rank_of_the_environment(monkeypatch, tmp_path):
    monkeypatch.delenv("MLX_RANK", raising=False)
    assert launch.rank_of_environment() is None
    hostfile = tmp_path / "hosts.json"
    hostfile.write_text('[["127.0.0.1:1"], ["127.0.0.1:2"], ["127.0.0.1:3"]]')
    monkeypatch.setenv("MLX_RANK", "2")
    monkeypatch.setenv("MLX_HOSTFILE", str(hostfile))
    assert launch.rank_of_environment() == (2, 3)
    monkeypatch.setenv("MLX_WORLD_SIZE", "2")
    with pytest.raises(ValueError, match="MLX_RANK=2 is not a rank of a group of 2"):
        launch.rank_of_environment()


def test_a_ranks_weights_are_its_slices():
    """Column-parallel rows, row-parallel columns, each half of a gate and up
    stack, and a row-parallel bias on rank 0 alone."""
    full = {
        "layers.0.attn.q.weight": torch.Size([8, 4]),
        "layers.0.attn.o.weight": torch.Size([4, 8]),
        "layers.0.attn.o.bias": torch.Size([4]),
        "layers.0.mlp.experts.gate_up_proj": torch.Size([2, 8, 4]),
        "norm.weight": torch.Size([4]),
    }
    part = {
        "layers.0.attn.q.weight": torch.Size([4, 4]),
        "layers.0.attn.o.weight": torch.Size([4, 4]),
        "layers.0.attn.o.bias": torch.Size([4]),
        "layers.0.mlp.experts.gate_up_proj": torch.Size([2, 4, 4]),
        "norm.weight": torch.Size([4]),
    }
    values = {name: torch.randn(shape) for name, shape in full.items()}
    loads = {name: (lambda v=v: v) for name, v in values.items()}
    sharding = tensor_parallel.Sharding(2, full, part)
    rank1 = {name: load() for name, load in sharding.loads(loads, 1).items()}
    assert torch.equal(rank1["layers.0.attn.q.weight"], values["layers.0.attn.q.weight"][4:])
    assert torch.equal(rank1["layers.0.attn.o.weight"], values["layers.0.attn.o.weight"][:, 4:])
    assert torch.equal(rank1["layers.0.attn.o.bias"], torch.zeros(4))
    stack = values["layers.0.mlp.experts.gate_up_proj"]
    halves = torch.cat((stack[:, 2:4], stack[:, 6:8]), dim=1)
    assert torch.equal(rank1["layers.0.mlp.experts.gate_up_proj"], halves)
    assert rank1["norm.weight"] is values["norm.weight"]
    rank0 = sharding.loads(loads, 0)
    assert rank0["layers.0.attn.o.bias"]() is values["layers.0.attn.o.bias"]


def test_a_ranks_block_of_spread_experts_is_whole_experts():
    """Spread, a rank's stacks are its experts whole: the gate and up halves
    are not cut (they are cut when the experts' hidden units split)."""
    stack = torch.randn(4, 6, 3)
    full = {"layers.1.mlp.experts.gate_up_proj": stack.shape}
    part = {"layers.1.mlp.experts.gate_up_proj": torch.Size([2, 6, 3])}
    first = {"layers.1.mlp.experts.first": 2}
    loads = tensor_parallel.Sharding(2, full, part, first).loads(
        {"layers.1.mlp.experts.gate_up_proj": lambda: stack}, 1
    )
    assert torch.equal(loads["layers.1.mlp.experts.gate_up_proj"](), stack[2:])
    assert loads["layers.1.mlp.experts.first"]().item() == 2


def test_a_ranks_rows_of_a_split_vocabulary_and_of_a_quantized_weight():
    """A split vocabulary's rows are each rank's block, and the rank knows
    where its block starts. A quantized export reads a weight in row blocks
    (QUANTIZE_VALUES) that may pass the end of the rank's slice: it gets the
    slice's rows, not the next rank's."""
    embedding = torch.randn(8, 4)
    full, part = {"embed.weight": embedding.shape}, {"embed.weight": torch.Size([4, 4])}
    sharding = tensor_parallel.Sharding(2, full, part, {"embed.first": 4})
    rank1 = sharding.loads({"embed.weight": lambda: embedding}, 1)
    assert torch.equal(rank1["embed.weight"](), embedding[4:])
    assert rank1["embed.first"]().item() == 4
    assert torch.equal(rank1["embed.weight"].rows(0, 4096), embedding[4:])
    rank0 = sharding.loads({"embed.weight": lambda: embedding}, 0)
    assert torch.equal(rank0["embed.weight"].rows(2, 4096), embedding[2:4])
    assert rank0["embed.first"]().item() == 0
