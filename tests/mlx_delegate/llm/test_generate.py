"""The LLM path end to end, with no hub: a random llama checkpoint written with
save_pretrained and a tokenizer trained with `tokenizers`, exported and run
through the CLI, token for token against transformers' generate."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from mlx_delegate.tools.inspector import main_instructions

# One worker runs this module and test_export.py, which share the llama fixture
# (conftest.py): the other worker does not wait for its export.
pytestmark = [pytest.mark.xdist_group("llama"), pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[3]
PROMPT = "the quick brown fox"
NEW_TOKENS = 64


def _cli(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "mlx_delegate.llm", *args], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    # Only our lines: torchao, torch.export and pytree noise is filtered (mlx_delegate/_quiet.py)
    # and the export's progress bar is off when stderr is not a terminal.
    assert done.stderr == "", done.stderr[-3000:]
    return done.stdout


def _in_process(llm_main, *args) -> str:
    """The CLI's main in this process (conftest.py); test_greedy_cli_matches_transformers_generate
    runs it as a process of its own."""
    code, stdout, stderr = llm_main(*args)
    assert code == 0 and stderr == "", stderr[-3000:]
    return stdout


def _generated_ids(stdout: str) -> list[int]:
    return [int(t) for t in re.search(r"^ids: (.*)$", stdout, re.M).group(1).split()]


def _prompt_ids(directory: Path) -> list[int]:
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(directory / "tokenizer.json")).encode(PROMPT).ids


def test_greedy_cli_matches_transformers_generate(llama):
    directory, model, pte = llama
    stdout = _cli(
        "generate", str(pte), "--tokenizer", str(directory), "--prompt", PROMPT,
        "--max-new-tokens", str(NEW_TOKENS), "--ids", "--device", "cpu",
    )  # fmt: skip
    ours = _generated_ids(stdout)
    prompt = torch.tensor([_prompt_ids(directory)])
    with torch.no_grad():
        theirs = model.generate(prompt, do_sample=False, max_new_tokens=NEW_TOKENS)
    assert ours == theirs[0, prompt.shape[1] :].tolist()
    assert len(ours) == NEW_TOKENS  # no early end of sequence: all 64 compared
    assert stdout.startswith(PROMPT)
    for line in ("time to first token:", "prefill:", "decode:"):
        assert line in stdout


def _word_level_tokenizer(words: list[str]):
    """Whole words, split on whitespace; with no decoder set, `tokenizers`
    decodes by joining the tokens with spaces."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {word: i for i, word in enumerate(words)}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token=words[0]))
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return tokenizer


def test_the_stream_is_the_tokenizers_decode_of_prompt_and_continuation():
    """The spaces the decoder puts between tokens come out between the prompt
    and the first new word too (issue 23, item 6: "the quick brownspeaks")."""
    from mlx_delegate.llm.generate import TextStream

    tokenizer = _word_level_tokenizer(["[UNK]", "the", "quick", "brown", "speaks", "a", "tokens"])
    assert tokenizer.decode([1, 2]) == "the quick"
    prompt = tokenizer.encode("the  quick brown zebra").ids  # collapsed spaces, an unknown word
    out = io.StringIO()
    stream = TextStream(tokenizer.decode, prompt, out=out)
    assert out.getvalue() == "the quick brown [UNK]"  # what the model is given
    for token in tokenizer.encode("speaks a tokens").ids:
        stream.add(token)
        assert out.getvalue() == tokenizer.decode(prompt + stream.ids)
    stream.finish()
    assert out.getvalue() == "the quick brown [UNK] speaks a tokens"


def test_the_stream_holds_back_an_incomplete_character_until_the_end():
    """Byte-level pieces: a character split over tokens is printed whole, and
    one the generation stopped inside is printed as the decoder renders it."""
    from mlx_delegate.llm.generate import TextStream

    decode = lambda ids: bytes(ids).decode("utf-8", errors="replace")  # a token per byte
    out = io.StringIO()
    stream = TextStream(decode, list(b"price "), out=out)
    for byte in "5\u20ac".encode():  # the euro sign is 3 bytes
        stream.add(byte)
        assert "\ufffd" not in out.getvalue()
    assert out.getvalue() == "price 5\u20ac"
    stream.add("\u20ac".encode()[0])
    assert out.getvalue() == "price 5\u20ac"
    stream.finish()
    assert out.getvalue() == decode(list(b"price ") + stream.ids) == "price 5\u20ac\ufffd"


def test_cli_streams_the_decode_of_prompt_and_continuation(llama, llm_main, tmp_path):
    """`generate` with a word-level tokenizer: the streamed text is the
    tokenizer's decode of the prompt and the generated ids, with the space
    between the prompt and the first new word."""
    from mlx_delegate.llm.generate import load_tokenizer

    directory, model, pte = llama
    words = [f"w{i}" for i in range(model.config.vocab_size)]
    words[0], words[3:6] = "[UNK]", ["the", "quick", "brown"]
    _word_level_tokenizer(words).save(str(tmp_path / "tokenizer.json"))
    stdout = _in_process(
        llm_main, "generate", pte, "--tokenizer", tmp_path, "--prompt", "the quick brown",
        "--max-new-tokens", "8", "--ids", "--device", "cpu",
    )  # fmt: skip
    text, _ = stdout.split("\nids: ", 1)
    ids = _generated_ids(stdout)
    assert ids
    tokenizer = load_tokenizer(tmp_path)
    prompt = tokenizer.encode("the quick brown").ids
    assert text == tokenizer.decode(prompt + ids)
    assert text.startswith("the quick brown w")


def test_ignore_eos_generates_past_an_end_of_sequence(llama, llm_main):
    """--ignore-eos (as mlxd-generate's): an end of sequence's id is printed and the
    generation goes on to --max-new-tokens."""
    from mlx_delegate.llm.generate import Program, generate_ids

    directory, _, pte = llama
    program = Program(pte, device="cpu")
    assert program.eos_ids == {2}
    prompt = _prompt_ids(directory)
    new_tokens = 120
    # At a high temperature the sampler is near uniform over the 512 tokens, so
    # some seed draws the end of sequence before the budget runs out.
    for seed in range(100):
        stopped = list(generate_ids(program, prompt, new_tokens, temperature=100.0, seed=seed))
        if len(stopped) < new_tokens:
            break
    else:
        pytest.fail("no seed drew an end of sequence")
    assert stopped[-1] == 2
    stdout = _in_process(
        llm_main, "generate", pte, "--tokenizer", directory, "--prompt", PROMPT,
        "--max-new-tokens", new_tokens, "--temperature", "100", "--seed", seed,
        "--ids", "--ignore-eos", "--device", "cpu",
    )  # fmt: skip
    ids = _generated_ids(stdout)
    assert len(ids) == new_tokens and ids[: len(stopped)] == stopped  # the same draws, on past it
    assert f"decode: {new_tokens - 1} tokens" in stdout


def test_sampling_in_the_program_matches_eager(llama):
    """Temperature and top-p sampling inside the delegate picks the tokens the
    same sampler picks in eager PyTorch from the same random numbers."""
    from mlx_delegate.llm import checkpoint
    from mlx_delegate.llm.generate import Program, generate_ids
    from mlx_delegate.llm.sampling import Generator

    directory, _, pte = llama
    prompt = _prompt_ids(directory)
    program = Program(pte, device="cpu")
    ours = list(generate_ids(program, prompt, 24, temperature=0.9, top_p=0.8, seed=7))

    eager = Generator(checkpoint.load(directory, max_seq_len=128))
    import random

    rng, tokens, pos, expected = random.Random(7), prompt, 0, []
    with torch.no_grad():
        while len(expected) < len(ours):
            args = (torch.tensor([tokens]), torch.tensor([pos]), torch.tensor([0.9]))
            token = int(eager(*args, torch.tensor([0.8]), torch.tensor([rng.random()]))[0])
            expected.append(token)
            pos, tokens = pos + len(tokens), [token]
    assert ours == expected
    assert len(set(ours)) > 3  # sampled, not one token repeated


def test_prompt_longer_than_the_cache_is_refused(llama):
    from mlx_delegate.llm.generate import Program, generate_ids

    program = Program(llama[2], device="cpu")
    with pytest.raises(ValueError, match="fills the cache"):
        next(generate_ids(program, [5] * 128, 4))


def test_mlxd_generate_matches_transformers_generate(llama):
    """The C++ generator (no Python in its process) gives the same greedy
    tokens, from token ids (it has no tokenizer)."""
    build = Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime"))
    exe = build / "mlxd-generate"
    assert exe.is_file(), f"{exe} was not built (make runtime)"
    directory, model, pte = llama
    prompt = _prompt_ids(directory)
    done = subprocess.run(
        [str(exe), str(pte), "--prompt-ids", " ".join(map(str, prompt)), "--device", "cpu",
         "--max-new-tokens", str(NEW_TOKENS)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with torch.no_grad():
        theirs = model.generate(torch.tensor([prompt]), do_sample=False, max_new_tokens=NEW_TOKENS)
    assert _generated_ids(done.stdout) == theirs[0, len(prompt) :].tolist()
    assert "decode: 63 tokens" in done.stdout


def test_decode_steps_run_ahead_and_give_the_same_tokens(llama):
    """Each greedy decode step is started by the one before it (schema:
    RunAhead), with the tokens of steps that are not; sampling (a new random
    number a step) is never predicted, so nothing is started in vain. The debug
    report counts a decode step's primitives: the products read their weights
    transposed once at load, so a step's only Transposes are the attention's
    (queries, keys and values into heads, and back: four a layer)."""
    build = Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime"))
    directory, _, pte = llama
    prompt = " ".join(map(str, _prompt_ids(directory)))

    logs = []  # each generation's debug report

    def generate(*args: str, **env: str) -> tuple[list[int], int]:
        """The ids, and how many calls the call before had started."""
        done = subprocess.run(
            [str(build / "mlxd-generate"), str(pte), "--prompt-ids", prompt, "--device", "cpu",
             "--max-new-tokens", "16", "--ignore-eos", *args],
            capture_output=True, text=True, env={**os.environ, "MLX_DELEGATE_LOG": "debug", **env},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        logs.append(done.stderr)
        return _generated_ids(done.stdout), done.stderr.count("(by the last call)")

    ids, started = generate()
    census = re.search(r"a call built ahead: (\d+) primitives: (.*)", logs[0])
    counts = dict(re.findall(r"(\w+) (\d+)", census[2]))
    assert int(counts["Matmul"]) == 4 * llama[1].config.num_hidden_layers + 1  # and the LM head
    assert int(counts["Transpose"]) == 4 * llama[1].config.num_hidden_layers
    # The prompt's call and the first decode step's are not predicted by a call
    # that came as predicted; the 14 after them are.
    assert started == 14
    assert generate(MLX_DELEGATE_RUN_AHEAD="0") == (ids, 0)
    sampled, started = generate("--temperature", "0.8", "--seed", "3")
    assert started == 0 and sampled != ids


def test_a_wrong_prediction_leaves_nothing_behind(llama):
    """A generation that ends has started one more step, at the position after
    its last; another prompt, a shorter one and the first again (each a call
    against the prediction) give the tokens they give in a fresh program."""
    from mlx_delegate.llm.generate import Program, generate_ids

    prompts = [
        [(7 * i + 3) % 512 for i in range(20)],
        [9, 8, 7],
        [(7 * i + 3) % 512 for i in range(20)],
    ]
    program = Program(llama[2], device="cpu")
    again = [list(generate_ids(program, p, 12, stop_at_eos=False)) for p in prompts]
    fresh = [
        list(generate_ids(Program(llama[2], device="cpu"), p, 12, stop_at_eos=False))
        for p in prompts
    ]
    assert again == fresh and again[0] == again[2]


def test_mlxd_generate_refuses_bad_input(llama):
    build = Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime"))
    pte = llama[2]
    run = lambda *a: subprocess.run(
        [str(build / "mlxd-generate"), *a], capture_output=True, text=True
    )
    usage = run(str(pte), "--prompt-ids", "1 x")
    assert usage.returncode == 2 and "'x' is not a token id" in usage.stderr
    too_long = run(str(pte), "--prompt-ids", " ".join(["5"] * 128), "--device", "cpu")
    assert too_long.returncode == 1 and "fills the cache (128)" in too_long.stderr
    not_a_program = run(str(llama[0] / "config.json"), "--prompt-ids", "1")
    assert not_a_program.returncode == 1 and "mlxd-generate: loading" in not_a_program.stderr


def _ops(pte: Path) -> list[str]:
    return [i.op for i in main_instructions(pte.read_bytes())]


def test_the_hot_path_is_fused(llama):
    """Per layer: two fused ropes, the cache written in place by two slice
    updates at the cache position, one fused attention reading the grouped K/V
    unrepeated; the norms are MLX's fast ones."""
    ops = _ops(llama[2])
    layers = llama[1].config.num_hidden_layers
    assert ops.count("Rope") == 2 * layers
    assert ops.count("SliceUpdate") == 2 * layers
    assert ops.count("ScaledDotProductAttention") == layers
    assert ops.count("RmsNorm") == 2 * layers + 1
    for unfused in ("Cos", "Sin", "IndexPut", "BroadcastTo"):
        assert unfused not in ops
    for attention in main_instructions(llama[2].read_bytes()):
        if attention.op == "ScaledDotProductAttention":  # MLX's causal mode, no mask tensor
            assert attention.literals["lower_right"] and "mask" not in attention.reads


def _recorded_calls(program) -> list[int]:
    """The token count of each of `program`'s calls from now on, as they happen."""
    calls = []
    step = program.step
    program.step = lambda tokens, *rest: calls.append(len(tokens)) or step(tokens, *rest)
    return calls


def test_a_prompt_in_chunks_gives_the_tokens_of_one_call(llama):
    """A 40-token prompt in chunks of 16, 16 and 8 (each call attends to the cache
    written before it): the tokens of the whole prompt in one call, and no call
    is longer than the chunk."""
    from mlx_delegate.llm.generate import Program, generate_ids

    program = Program(llama[2], device="cpu")
    calls = _recorded_calls(program)
    prompt = [(7 * i + 3) % 512 for i in range(40)]
    whole = list(generate_ids(program, prompt, 8, stop_at_eos=False, prefill_chunk=0))
    assert calls[0] == 40
    calls.clear()
    chunked = list(generate_ids(program, prompt, 8, stop_at_eos=False, prefill_chunk=16))
    assert calls[:3] == [16, 16, 8] and max(calls) == 16
    assert chunked == whole


def test_mlxd_generate_prefills_in_chunks(llama):
    pte = llama[2]
    build = Path(os.environ.get("MLXD_TEST_BUILD_DIR", ROOT / "build" / "runtime"))
    exe = build / "mlxd-generate"
    prompt = " ".join(str((7 * i + 3) % 512) for i in range(40))

    def ids(chunk: str) -> list[int]:
        done = subprocess.run([str(exe), str(pte), "--prompt-ids", prompt, "--max-new-tokens",
                               "8", "--ignore-eos", "--prefill-chunk", chunk],
                              capture_output=True, text=True, check=True)  # fmt: skip
        return _generated_ids(done.stdout)

    assert ids("16") == ids("0")


def test_an_8192_token_cache_takes_a_prompt_in_chunks_past_1024(llama, tmp_path):
    """--max-seq-len 8192: a 1,200-token prompt goes in as 512 + 512 + 176 tokens
    (so no call builds a mask of the whole prompt squared), and the greedy tokens
    are transformers' for the same prompt."""
    from mlx_delegate.llm.generate import PREFILL_CHUNK, Program, generate_ids

    directory, model, _ = llama
    from mlx_delegate.llm.export import export_program

    pte = export_program(directory, tmp_path / "long.pte", max_seq_len=8192).path
    program = Program(pte, device="cpu")
    assert program.max_seq_len == 8192
    calls = _recorded_calls(program)
    prompt = [(7 * i + 3) % 512 for i in range(1200)]
    ours = list(generate_ids(program, prompt, 16, stop_at_eos=False))
    assert calls[:3] == [PREFILL_CHUNK, PREFILL_CHUNK, 1200 - 2 * PREFILL_CHUNK]
    with torch.no_grad():
        theirs = model.generate(
            torch.tensor([prompt]), do_sample=False, max_new_tokens=16, eos_token_id=None
        )
    assert ours == theirs[0, len(prompt) :].tolist()
