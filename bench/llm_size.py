"""LLMs at real size on the GPU machine: ours (mlxd-generate on gpu:0) against
mlx-lm and torch eager CUDA on the same checkpoint, in one run.

Here (the export needs ExecuTorch's Python, which the GPU machine lacks):
    .venv/bin/python bench/llm_size.py --prepare .gpu/size --shape llama-1b \\
        [--dtypes bf16,int8,int4] [--layers N]
writes a checkpoint of the public configuration with tiled weights (every tensor
a different cyclic shift of one random block: as costly to read as random
weights, but they shrink ~1000x (`_pack`), so they fit a device call), exports our
.pte/.ptd for each dtype from it, and gzips all into DIR; `--without-joining
DTYPES` also exports those dtypes with products of one input kept apart
(`export_program(join_products=False)`), which `--run` measures as rows
"ours, not joined". `--holes`, for a model larger than this disk (the whole
Qwen3-30B-A3B: 61 GB in bf16), writes the checkpoint's shards as headers and
holes, its values made as the export reads them (`read_tiles`), and mlx-lm's
loader there makes the same values on the device (`mlx_lm_tiles`).
There (after ../shared/GPU.md's install calls, with mlx-lm's wheel installed):
    python3 bench/llm_size.py --run .gpu/size --generate BUILD/mlxd-generate
(add --split for where a decode step's time goes, see `split`; --repeat N to run
ours and mlx-lm N times each, alternated, a row being the median run: one
process's decode there differs from the next one's by up to a fifth) prints one
table row per system and dtype: load time, time to first token,
prefill and decode tokens/s, peak GPU memory (sampled through NVML from outside
the measured process), and the fraction of the card's memory bandwidth decode
reaches: (bytes of weights read per token + the KV cache read at the mean
decode position) x decode tokens/s / bandwidth.

Each system runs in its own process: greedy, a --prompt-len prompt, --new-tokens
new tokens, no stop at EOS, after one untimed warm-up generation. A row's label
(--dtypes) is `WEIGHTS[+kvBITS]`: bf16 or an `llm export --quantize` format
(int2..int8, nvfp4, mxfp4, mxfp8), and a KV cache of 8 or 4 bits (`--kv-cache`).
mlx-lm's rows quantize its bf16 model with its own nn.quantize (our group size,
or the float format's own), and its KV cache with generate_step's kv_bits (groups
of 64, from the first token). The tables after it: how many of our greedy tokens
equal our bf16 row's, from the first, and the KV cache's size at 8192 tokens.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import plugin_log  # bench/, the script's own directory

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BANDWIDTH = {"H100": 3.35e12, "H200": 4.8e12}  # bytes/s, the SXM cards' HBM3/HBM3e


# ---- here -----------------------------------------------------------------------------


def prepare(args) -> None:
    import torch

    from mlx_delegate.llm import tiny
    from mlx_delegate.llm.export import export_program

    out, work = args.prepare, args.work
    out.mkdir(parents=True, exist_ok=True)
    checkpoint = work / f"{args.shape}-{args.layers or 'all'}{'-holes' if args.holes else ''}"
    if not (checkpoint / "tokenizer.json").is_file():
        block = torch.randn(4096, generator=torch.Generator().manual_seed(0)) * 0.02

        def tiled(i: int, shape) -> torch.Tensor:
            index = (torch.arange(shape.numel()) + 97 * i) % block.numel()
            return block[index].view(shape)

        layers = {} if args.layers is None else {"num_hidden_layers": args.layers}
        if args.holes:
            tiny.write_shaped_checkpoint(checkpoint, args.shape, holes=True, **layers)
            (checkpoint / TILES).write_bytes(holes_tiles(block).numpy().tobytes())
        else:
            tiny.write_shaped_checkpoint(checkpoint, args.shape, fill=tiled, **layers)
        tiny.write_tokenizer(checkpoint, 512)
    read_tiles(checkpoint)
    bundle = out / "checkpoint"
    bundle.mkdir(exist_ok=True)
    for f in checkpoint.iterdir():
        _pack(f, bundle / (f.name + ".gz"))
    variants = [(d, True) for d in args.dtypes] + [(d, False) for d in args.without_joining]
    for dtype, joined in variants:
        weights, kv = parse_variant(dtype)
        name = dtype if joined else f"{dtype}{UNJOINED}"
        # Exported every time: the program is what is measured, and one kept from
        # an earlier run would not show what the code does now.
        pte = work / f"{args.shape}-{args.layers or 'all'}-{name}.pte"
        result = export_program(
            checkpoint, pte, dtype="bf16", quantize=None if weights == "bf16" else weights,
            group_size=args.group_size, max_seq_len=args.max_seq_len,
            kv_cache=kv and f"int{kv}", join_products=joined,
        )  # fmt: skip
        print(result.report(), flush=True)
        _pack(pte, out / f"{name}.pte.gz")
        _pack(pte.with_suffix(".ptd"), out / f"{name}.ptd.gz")
        pte.unlink()
        pte.with_suffix(".ptd").unlink()  # packed: the work directory need not hold every size
    for f in sorted(out.rglob("*.gz")):
        print(f"{f}: {f.stat().st_size / 2**20:.2f} MiB")


def parse_variant(label: str) -> tuple[str, int]:
    """A row's label, `WEIGHTS[+kvBITS]`: "bf16" or an `llm export --quantize`
    format, and the KV cache's bits (0: bf16)."""
    weights, _, kv = label.partition("+kv")
    return weights, int(kv or 0)


CHUNK = 1 << 16
UNJOINED = ".unjoined"  # a program's name suffix: exported with products of one input apart


def _pack(source: Path, target: Path) -> None:
    """`source` gzipped after replacing each 64 KiB chunk seen before by a
    reference to it. A tiled tensor repeats with a period dividing 64 KiB (8 KiB in
    bfloat16, less packed), so every chunk inside one is its first one's copy:
    about three chunks a tensor remain, where gzip alone keeps 1/40 of them all.
    A chunk that is a hole of a sparse file (`--holes`' shards) is neither read
    nor kept: it stays a hole when unpacked."""
    seen: dict[bytes, int] = {}
    size = source.stat().st_size
    with open(source, "rb") as src, gzip.open(target, "wb", compresslevel=6) as out:
        for index in range(-(-size // CHUNK)):
            start = index * CHUNK
            length = min(CHUNK, size - start)
            if _next_data(src.fileno(), start) >= start + length:
                out.write(b"H" + length.to_bytes(4, "little"))
                continue
            src.seek(start)
            chunk = src.read(length)
            digest = hashlib.blake2b(chunk, digest_size=16).digest()
            if digest in seen:
                out.write(b"R" + seen[digest].to_bytes(8, "little"))
            else:
                seen[digest] = index
                out.write(b"D" + len(chunk).to_bytes(4, "little") + chunk)


def _next_data(fd: int, start: int) -> int:
    """Where the file's data resumes at or after `start` (its size if only a hole follows)."""
    try:
        return os.lseek(fd, start, os.SEEK_DATA)
    except OSError:  # ENXIO: nothing but a hole up to the end
        return os.fstat(fd).st_size


def _unpack(source: Path, target: Path) -> Path:
    if target.is_file():
        return target
    with gzip.open(source, "rb") as src, open(target, "w+b") as out:
        while kind := src.read(1):
            if kind == b"D":
                out.write(src.read(int.from_bytes(src.read(4), "little")))
            elif kind == b"H":
                out.seek(int.from_bytes(src.read(4), "little"), os.SEEK_CUR)
            else:
                end = out.tell()
                out.seek(int.from_bytes(src.read(8), "little") * CHUNK)
                chunk = out.read(CHUNK)
                out.seek(end)
                out.write(chunk)
        out.truncate(out.tell())  # a hole at the end is kept by the file's size
    return target


# ---- a checkpoint of holes (--holes) ------------------------------------------------------

TILES = "tiles.f32"  # a --holes checkpoint's values: one period of them, float32


def holes_tiles(block):
    """One period of a --holes checkpoint's values: `block`'s 4096, each run of
    2048 (a row of a 2048-wide matrix) shifted 64 further than the run before,
    64 runs. A matrix's rows then differ (a router's 128 rows give 64 different
    logits: tokens take different experts) while a tensor's values repeat every
    131072 (256 KiB in bfloat16, 64 KiB packed to int4: whole chunks of `_pack`)."""
    import torch

    run, shift, runs = 2048, 64, 4096 // 64
    index = torch.arange(run * runs)
    return block[(index + shift * (index // run)) % len(block)]


def tile_shifts(checkpoint_dir: Path) -> dict[str, int]:
    """Each tensor's shift into the tiles, by name: 64 times the index of its
    group, a group being the tensors whose names differ only in an expert's
    number (in the index's order). Every tensor the program holds (an expert
    stack is one) then differs from every other, as real weights do: the data
    file stores equal contents once (`formats/ptd.py`), and two layers that
    shared their bytes would share them on the device too. The 128 experts of
    one stack are equal, which packs them into a few chunks."""
    from mlx_delegate.llm import checkpoint

    names = json.loads((checkpoint_dir / checkpoint.INDEX).read_text())["weight_map"]
    groups: dict[str, int] = {}
    shifts = {}
    for name in names:
        group = groups.setdefault(re.sub(r"\.experts\.\d+\.", ".experts.", name), len(groups))
        shifts[name] = 64 * group
    return shifts


def read_tiles(checkpoint_dir: Path):
    """Where `checkpoint_dir` holds TILES (a --holes checkpoint: its shards'
    data are holes), this process's reads of its tensors (our
    `mlx_delegate.llm.checkpoint`) give tiled values instead: element j of
    tensor t is TILES' element (j + tile_shifts[t]) mod its length, plus 1 in a
    norm's weight (1-D), as write_shaped_checkpoint adds. `mlx_lm_tiles` gives
    mlx-lm the same values."""
    import bisect

    import torch

    from mlx_delegate.llm import checkpoint

    if not (checkpoint_dir / TILES).is_file():
        return
    tiles = torch.frombuffer(bytearray((checkpoint_dir / TILES).read_bytes()), dtype=torch.float32)
    shifts, starts, begins = tile_shifts(checkpoint_dir), {}, {}

    def tensor_at(file: Path, start: int) -> tuple[str, int]:
        """The tensor of `file` holding byte `start`, and where it begins."""
        if file not in starts:
            header = checkpoint._safetensors_header(file)
            starts[file] = sorted((begin, name) for name, (_, _, begin, _) in header.items())
            begins[file] = [begin for begin, _ in starts[file]]
        begin, name = starts[file][bisect.bisect_right(begins[file], start) - 1]
        return name, begin

    def tiled(file, dtype, shape, start, end):
        name, begin = tensor_at(Path(file), start)
        first = (start - begin) // dtype.itemsize + shifts[name]
        count = torch.Size(shape).numel()
        source = tiles + 1.0 if len(shape) == 1 else tiles
        period = source.to(dtype).roll(-(first % len(tiles)))  # no float32 copy
        return period.repeat(-(-count // len(period)))[:count].view(shape)

    checkpoint._read_tensor = tiled


def mlx_lm_tiles(checkpoint_dir: Path) -> None:
    """`read_tiles` for mlx-lm: its loader's `mx.load` of a shard gives the
    same tiled values, made on the device."""
    import mlx.core as mx
    import numpy as np
    import torch

    from mlx_delegate.llm import checkpoint

    if not (checkpoint_dir / TILES).is_file():
        return
    tiles = mx.array(np.fromfile(checkpoint_dir / TILES, dtype=np.float32))
    shifts = tile_shifts(checkpoint_dir)
    dtypes = {torch.bfloat16: mx.bfloat16, torch.float16: mx.float16, torch.float32: mx.float32}

    def load(file, *rest, **options):
        arrays = {}
        for name, (dtype, shape, _, _) in checkpoint._safetensors_header(Path(file)).items():
            count = int(np.prod(shape))
            source = tiles + 1.0 if len(shape) == 1 else tiles
            period = mx.roll(source.astype(dtypes[dtype]), -(shifts[name] % tiles.size))
            arrays[name] = mx.tile(period, -(-count // tiles.size))[:count].reshape(shape)
        return arrays

    mx.load = load


# ---- there ----------------------------------------------------------------------------


class GpuMemoryPeak:
    """The GPU's used memory, sampled every 20 ms while the block runs."""

    def __enter__(self):
        import pynvml

        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        self.name = pynvml.nvmlDeviceGetName(handle)
        used = lambda: pynvml.nvmlDeviceGetMemoryInfo(handle).used  # noqa: E731
        self.base, self.peak, self._stop = used(), 0, threading.Event()

        def sample():
            while not self._stop.is_set():
                self.peak = max(self.peak, used() - self.base)
                time.sleep(0.02)

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def run(args) -> None:
    directory, work = args.run, args.work
    work.mkdir(parents=True, exist_ok=True)
    checkpoint = work / "checkpoint"
    checkpoint.mkdir(exist_ok=True)
    for f in (directory / "checkpoint").iterdir():
        _unpack(f, checkpoint / f.name.removesuffix(".gz"))
    config = json.loads((checkpoint / "config.json").read_text())
    prompt = [(7 * i + 3) % config["vocab_size"] for i in range(args.prompt_len)]
    rows = []
    for dtype in args.dtypes:
        specs = []  # (system, dtype, command, parse, env): measured args.repeat times each
        if (directory / f"{dtype}.pte.gz").is_file():
            pte = _unpack(directory / f"{dtype}.pte.gz", work / f"{dtype}.pte")
            _unpack(directory / f"{dtype}.ptd.gz", work / f"{dtype}.ptd")
            command = _ours(args, pte, prompt)
            specs.append(("ours", dtype, command, _mlxd_generate_numbers, None))
            if dtype in args.without_run_ahead:  # what starting each step ahead gains
                off = {**os.environ, "MLX_DELEGATE_RUN_AHEAD": "0"}
                specs.append(("ours, not ahead", dtype, command, _mlxd_generate_numbers, off))
        unjoined = directory / f"{dtype}{UNJOINED}.pte.gz"
        if unjoined.is_file():  # what joining products of one input gains
            pte = _unpack(unjoined, work / f"{dtype}{UNJOINED}.pte")
            _unpack(directory / f"{dtype}{UNJOINED}.ptd.gz", work / f"{dtype}{UNJOINED}.ptd")
            command = _ours(args, pte, prompt)
            specs.append(("ours, not joined", dtype, command, _mlxd_generate_numbers, None))
        mlx_lm = _child("mlx_lm", args, checkpoint, dtype, prompt)
        specs.append(("mlx-lm", dtype, mlx_lm, None, None))
        rows += _median_runs(specs, args.repeat)
        if dtype == "bf16":  # once: an order of magnitude behind, its spread changes nothing
            rows.append(_measure("torch", dtype, _child("torch", args, checkpoint, dtype, prompt)))
    _table(rows, config, args)
    _spread(rows)
    _agreement(rows)
    _cache_at(config, args.dtypes, CACHE_REPORT_POSITIONS)
    if args.split:
        split(args, directory, work, checkpoint, prompt)


SPLIT_TOKENS = 64


def split(args, directory: Path, work: Path, checkpoint: Path, prompt: list[int]) -> None:
    """Where one decode step's time goes, per dtype. Ours: the plugin's debug
    report of each call (MLX's graph built on the host by the interpreter,
    evaluated, outputs copied) and the rest of the step (ExecuTorch, the
    runner). A decode step that the step before started ahead (schema:
    RunAhead) builds no graph of its own, it builds the next step's while the
    device runs its own: "ahead" is that time, and "evaluated" only what is
    left of the device's work after it. mlx-lm's model in a loop that waits for each token before it
    builds the next step (as ours does) against mlx-lm's own pipelined loop,
    which builds step n+1 while the device runs step n: the difference is what
    overlapping the host's work with the device's is worth. "ahead" splits
    into building the graph and starting it (MLX's encoding and launching of
    its kernels). Then the primitives a decode step computes, each system's
    (the arrays of its graph that MLX evaluates: a kernel each, or a view)."""
    print(f"\nA decode step, ms (mean of the last {SPLIT_TOKENS - 1} of {SPLIT_TOKENS}):\n")
    print(
        "| system | dtype | graph built | next ahead | of which built | of which started "
        "| evaluated | copied out | rest | step |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    censuses = []
    for dtype in args.dtypes:
        pte = work / f"{dtype}.pte"
        if pte.is_file():
            censuses.append(("ours", dtype, _split_ours(args, pte, prompt, dtype)))
        command = _child("mlx_lm_split", args, checkpoint, dtype, prompt)
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stderr[-2000:])
            continue
        rows, census = result.stdout.strip().split("\ncensus: ")
        print(rows)
        censuses.append(("mlx-lm", dtype, census))
    print("\nThe primitives of a decode step:\n\n| system | dtype | primitives |\n|---|---|---|")
    for system, dtype, census in censuses:
        print(f"| {system} | {dtype} | {census} |")


def _split_ours(args, pte: Path, prompt: list[int], dtype: str) -> str:
    """Prints our row; returns the primitives of a decode step's graph."""
    command = _ours(args, pte, prompt)
    command[command.index("--max-new-tokens") + 1] = str(SPLIT_TOKENS)
    env = {**os.environ, "MLX_DELEGATE_LOG": "debug"}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        print(f"ours {dtype} failed:\n{result.stderr[-2000:]}")
        return "failed"
    steps = plugin_log.calls(result.stderr)[-(SPLIT_TOKENS - 1) :]  # the timed decode
    mean = [sum(column) / len(steps) for column in zip(*steps)]
    step = 1e3 / _mlxd_generate_numbers(result.stdout)["decode"]
    parts = mean[0] + mean[1] + mean[4] + mean[5]  # built, ahead, evaluated, copied out
    cells = " | ".join(f"{v:.3f}" for v in (*mean, step - parts, step))
    print(f"| ours | {dtype} | {cells} |")
    return plugin_log.census(result.stderr)


def child_mlx_lm_split(args) -> None:
    """One table row of `split` for mlx-lm's model, and the sampler's sort."""
    import mlx.core as mx
    from mlx_lm.generate import generate_step
    from mlx_lm.models.cache import make_prompt_cache

    model, prompt = _mlx_lm_model(args)
    clock = time.perf_counter
    for _ in range(2):  # the second is timed
        cache = make_prompt_cache(model)
        token = mx.argmax(model(prompt[None], cache=cache)[:, -1], axis=-1)
        mx.eval(token)
        built = evaluated = 0.0
        for _ in range(SPLIT_TOKENS - 1):
            start = clock()
            token = mx.argmax(model(token[None], cache=cache)[:, -1], axis=-1)
            middle = clock()
            token = mx.array([token.item()])  # waits for the step, as ours does
            built, evaluated = built + middle - start, evaluated + clock() - middle
    n = SPLIT_TOKENS - 1
    waited = (built + evaluated) / n * 1e3
    steps = generate_step(prompt, model, max_tokens=SPLIT_TOKENS)
    stamps = [clock() for _ in steps]
    pipelined = (stamps[-1] - stamps[0]) / (len(stamps) - 1) * 1e3
    print(f"| mlx-lm, waiting each step | {args.child_dtype} | {built / n * 1e3:.3f} | - | - | - | "
          f"{evaluated / n * 1e3:.3f} | - | - | {waited:.3f} |")  # fmt: skip
    print(f"| mlx-lm, pipelined | {args.child_dtype} | - | - | - | - | - | - | - "
          f"| {pipelined:.3f} |")  # fmt: skip
    logits = mx.random.normal((1, model.args.vocab_size))
    mx.eval(logits)
    start = clock()
    for _ in range(20):
        mx.eval(mx.sort(mx.softmax(logits, axis=-1), axis=-1))
    print(f"| a sort of the vocabulary ({model.args.vocab_size}) | - | - | - | - | - | "
          f"{(clock() - start) / 20 * 1e3:.3f} | - | - | - |")  # fmt: skip
    step = mx.argmax(model(token[None], cache=cache)[:, -1], axis=-1)  # built, not evaluated
    # the caches' buffers (a cache's state also holds its offset, an int)
    buffers = [a for c in cache for a in c.state if isinstance(a, mx.array)]
    print("census:", dot_census(mx, [step, *buffers]))


def dot_census(mx, arrays) -> str:
    """The primitives MLX would evaluate for `arrays`, most first, as the
    plugin's debug report gives ours (mx.export_to_dot's graph: a rectangle a
    primitive; the weights and other computed arrays have none)."""
    with tempfile.TemporaryDirectory() as directory:  # it writes to a path or a real file
        path = Path(directory) / "step.dot"
        mx.export_to_dot(str(path), *arrays)
        dot = path.read_text()
    counts = collections.Counter(re.findall(r'\[label ="(\w+)", shape=rectangle\]', dot))
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return f"{sum(counts.values())} primitives: " + " ".join(f"{k} {v}" for k, v in ranked)


def _measure(system: str, dtype: str, command: list[str], parse=None, env=None) -> dict:
    """Runs `command` with the GPU's memory sampled; `parse(stdout)` gives load,
    ttft (seconds), prefill and decode (tok/s); default: the children's lines."""
    with GpuMemoryPeak() as memory:
        result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        print(f"{system} {dtype} failed:\n{result.stderr[-3000:]}", flush=True)
        return {"system": system, "dtype": dtype, "failed": True}
    numbers = (parse or _child_numbers)(result.stdout)
    row = {"system": system, "dtype": dtype, "peak": memory.peak, "gpu": memory.name, **numbers}
    print(json.dumps(row), flush=True)
    return row


def _median_runs(specs: list[tuple], repeat: int) -> list[dict]:
    """Each spec's row from `repeat` runs, the systems alternated run by run (a
    drift of the machine reaches all alike): the run of median decode speed
    (the slower of the middle two), with every run's decode tok/s, in order,
    under "runs". On the GPU machine one process's decode differs from the
    next's by up to a fifth."""
    runs: list[list[dict]] = [[] for _ in specs]
    for _ in range(repeat):
        for spec, measured in zip(specs, runs):
            measured.append(_measure(*spec))
    rows = []
    for measured in runs:
        done = [r for r in measured if not r.get("failed")]
        if not done:
            rows.append(measured[0])
            continue
        median = sorted(done, key=lambda r: r["decode"])[(len(done) - 1) // 2]
        rows.append({**median, "runs": [r["decode"] for r in done]})
    return rows


def _spread(rows: list[dict]) -> None:
    """Every run's decode tok/s, where a row is the median of several."""
    repeated = [r for r in rows if len(r.get("runs", ())) > 1]
    if repeated:
        print(
            "\n| system | dtype | decode tok/s of each run (the row: the median) |\n|---|---|---|"
        )
        for r in repeated:
            print(f"| {r['system']} | {r['dtype']} | {', '.join(f'{d:.1f}' for d in r['runs'])} |")


def _child_numbers(stdout: str) -> dict:
    found = re.findall(r"^(load|ttft|prefill|decode): ([\d.e+-]+)", stdout, re.M)
    return {key: float(value) for key, value in found}


def _mlxd_generate_numbers(stdout: str) -> dict:
    """mlxd-generate's report, in the children's units, and its token ids."""
    get = lambda pattern: float(re.search(pattern, stdout).group(1))  # noqa: E731
    return {
        "load": get(r"load: ([\d.]+) ms") / 1e3,
        "ttft": get(r"time to first token: ([\d.]+) ms") / 1e3,
        "prefill": get(r"prefill: \d+ tokens, ([\d.]+)"),
        "decode": get(r"decode: \d+ tokens, ([\d.]+)"),
        "ids": re.search(r"^ids:(.*)$", stdout, re.M).group(1).split(),
    }


CACHE_REPORT_POSITIONS = 8192


def _cache_at(config: dict, labels: list[str], positions: int) -> None:
    """The KV cache's bytes at `positions` for each cache format the rows use
    (the delegate allocates its buffers whole: these are its sizes)."""
    formats = sorted({parse_variant(label)[1] for label in labels})
    if formats == [0]:
        return
    full = cache_bytes(config, 0, positions)
    print(f"\n| KV cache at {positions} tokens | MB | saved |\n|---|---|---|")
    for bits in formats:
        size = cache_bytes(config, bits, positions)
        print(f"| {f'int{bits}' if bits else 'bf16'} | {size / 1e6:.1f} | {1 - size / full:.0%} |")


def _agreement(rows: list[dict]) -> None:
    """How many of each of our rows' greedy tokens equal the bf16 row's, from
    the first: what a quantized cache (or weights) changes in what is said."""
    ours = {r["dtype"]: r["ids"] for r in rows if r["system"] == "ours" and "ids" in r}
    same = lambda a, b: next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a))  # noqa
    if "bf16" in ours and len(ours) >= 2:
        print("\n| ours | tokens equal to bf16's, from the first |\n|---|---|")
        for dtype, ids in ours.items():
            print(f"| {dtype} | {same(ids, ours['bf16'])} of {len(ids)} |")
    variants = [r for r in rows if r["system"].startswith("ours, ") and r["dtype"] in ours]
    if variants:  # the same model run or exported another way: the same tokens
        print("\n| ours, another way | dtype | tokens equal to ours', from the first |")
        print("|---|---|---|")
        for r in variants:
            if "ids" in r:
                ids = r["ids"]
                print(
                    f"| {r['system']} | {r['dtype']} | {same(ids, ours[r['dtype']])} of {len(ids)} |"
                )


def _ours(args, pte: Path, prompt: list[int]) -> list[str]:
    return [str(args.generate), str(pte), "--device", "gpu:0",
            "--prompt-ids", " ".join(map(str, prompt)), "--max-new-tokens", str(args.new_tokens),
            "--ignore-eos", "--warmup", "1", "--prefill-chunk", str(args.prefill_chunk)]  # fmt: skip


def _child(system: str, args, checkpoint: Path, dtype: str, prompt: list[int]) -> list[str]:
    return [sys.executable, __file__, "--child", system, "--child-checkpoint", str(checkpoint),
            "--child-dtype", dtype, "--prompt-len", str(len(prompt)), "--new-tokens",
            str(args.new_tokens), "--group-size", str(args.group_size),
            "--max-seq-len", str(args.max_seq_len)]  # fmt: skip


def _timed(step_first, step_next, new_tokens: int) -> tuple[float, float]:
    """(time to first token, decode seconds of the new_tokens - 1 after it)."""
    start = time.perf_counter()
    token = step_first()
    first = time.perf_counter() - start
    start = time.perf_counter()
    for _ in range(new_tokens - 1):
        token = step_next(token)
    return first, time.perf_counter() - start


def _mlx_lm_config(checkpoint: Path) -> dict:
    """The config keys mlx-lm 0.32.2 reads under transformers 4's names, which
    transformers 5's save_pretrained writes differently (qwen3_moe's ModelArgs
    requires both)."""
    config = json.loads((checkpoint / "config.json").read_text())
    renamed = {}
    if "num_local_experts" in config and "num_experts" not in config:
        renamed["num_experts"] = config["num_local_experts"]
    if "rope_theta" not in config and "rope_theta" in (config.get("rope_parameters") or {}):
        renamed["rope_theta"] = config["rope_parameters"]["rope_theta"]
    return renamed


# mlx-lm's quantization of our float formats (MLX's modes, their own group sizes)
MLX_QUANTIZATION = {
    "nvfp4": {"mode": "nvfp4", "group_size": 16, "bits": 4},
    "mxfp4": {"mode": "mxfp4", "group_size": 32, "bits": 4},
    "mxfp8": {"mode": "mxfp8", "group_size": 32, "bits": 8},
}


def _mlx_lm_model(args):
    """mlx-lm's model of the child's checkpoint, quantized as the child's dtype
    says and loaded on the device, and the benchmark's prompt."""
    import mlx.core as mx
    import mlx.nn as nn
    from mlx_lm.utils import load_model

    checkpoint = Path(args.child_checkpoint)
    mlx_lm_tiles(checkpoint)
    model, _ = load_model(checkpoint, model_config=_mlx_lm_config(checkpoint))
    weights, _ = parse_variant(args.child_dtype)
    if weights in MLX_QUANTIZATION:
        nn.quantize(model, **MLX_QUANTIZATION[weights])
    elif weights != "bf16":
        nn.quantize(model, group_size=args.group_size, bits=int(weights[3:]))
    mx.eval(model.parameters())
    prompt = mx.array([(7 * i + 3) % model.args.vocab_size for i in range(args.prompt_len)])
    return model, prompt


def child_mlx_lm(args) -> None:
    start = time.perf_counter()
    model, prompt = _mlx_lm_model(args)
    load = time.perf_counter() - start

    _, kv_bits = parse_variant(args.child_dtype)
    cache = {"kv_bits": kv_bits, "kv_group_size": 64, "quantized_kv_start": 0} if kv_bits else {}
    times = mlx_lm_generation_times(model, prompt, args.new_tokens, **cache)
    print("load:", load)
    print_generation_times(times, args.prompt_len)


def mlx_lm_generation_times(model, prompt, new_tokens: int, **options) -> list[float]:
    """Seconds from the start to each token of mlx-lm's greedy generation
    (generate_step with `options`), after one untimed warm-up generation."""
    from mlx_lm.generate import generate_step

    def generation() -> list[float]:
        times, start = [], time.perf_counter()
        for _ in generate_step(prompt, model, max_tokens=new_tokens, **options):
            times.append(time.perf_counter() - start)  # each step yields an evaluated token
        return times

    generation()  # warm-up
    return generation()


def print_generation_times(times: list[float], prompt_len: int) -> None:
    """The children's lines (`_child_numbers` reads them)."""
    print("ttft:", times[0])
    print("prefill:", prompt_len / times[0])
    print("decode:", (len(times) - 1) / (times[-1] - times[0]))


def child_torch(args) -> None:
    import torch

    from mlx_delegate.llm import checkpoint

    read_tiles(Path(args.child_checkpoint))
    start = time.perf_counter()
    model = checkpoint.load(Path(args.child_checkpoint), args.max_seq_len, torch.bfloat16)
    model = model.cuda().requires_grad_(False)
    torch.cuda.synchronize()
    load = time.perf_counter() - start
    prompt = torch.tensor([[(7 * i + 3) % model.c.vocab_size for i in range(args.prompt_len)]])
    position = [args.prompt_len]

    def first():
        position[0] = args.prompt_len
        token = model(prompt.cuda(), torch.tensor([0], device="cuda")).argmax(-1)
        return int(token)

    def following(token: int):
        logits = model(torch.tensor([[token]], device="cuda"), torch.tensor([position[0]]).cuda())
        position[0] += 1
        return int(logits.argmax(-1))

    with torch.no_grad():
        _timed(first, following, 4)  # warm-up
        ttft, decode = _timed(first, following, args.new_tokens)
    print("load:", load)
    print("ttft:", ttft)
    print("prefill:", args.prompt_len / ttft)
    print("decode:", (args.new_tokens - 1) / decode)


# ---- the table --------------------------------------------------------------------------


def bytes_per_token(config: dict, dtype: str, group: int, position: float) -> float:
    """Weights read by one decode step (every matrix but the embedding, which
    gives one row; a tied LM head is that matrix, read whole) plus the KV cache
    read up to `position`. Quantized: 4 or 8 bits a weight plus a bfloat16
    scale and bias per group (ours and mlx-lm's alike); nvfp4 and mxfp8: their
    values and a byte of scale per 16 or 32. The cache: bf16, or codes and a
    bf16 scale and bias per 64 values."""
    hidden, layers = config["hidden_size"], config["num_hidden_layers"]
    heads, kv = config["num_attention_heads"], config["num_key_value_heads"]
    head_dim = config.get("head_dim") or hidden // heads
    # A mixture of experts reads its router and the experts each token picks.
    mlp = config.get("num_experts_per_tok", 0) * config.get("moe_intermediate_size", 0)
    router = hidden * (config.get("num_experts") or config.get("num_local_experts") or 0)
    per_layer = (
        hidden * head_dim * (2 * heads + 2 * kv)
        + 3 * hidden * (mlp or config["intermediate_size"])
        + router
    )
    matrices = layers * per_layer + config["vocab_size"] * hidden  # the LM head
    weights, kv_bits = parse_variant(dtype)
    floats = {"bf16": 2.0, "nvfp4": 0.5 + 1 / 16, "mxfp4": 0.5 + 1 / 32, "mxfp8": 1 + 1 / 32}
    bits = int(weights[3:]) if weights.startswith("int") else 0
    width = floats.get(weights) or (8 if bits == 7 else bits) / 8 + 4 / group  # 7 bits in 8
    return matrices * width + cache_bytes(config, kv_bits, position)


def cache_bytes(config: dict, kv_bits: int, positions: float) -> float:
    """Bytes of the K and V cache over `positions`: bf16, or `kv_bits` codes and
    a bf16 scale and bias per 64 values."""
    heads = config["num_attention_heads"]
    head_dim = config.get("head_dim") or config["hidden_size"] // heads
    width = kv_bits / 8 + 4 / 64 if kv_bits else 2.0
    values = 2 * config["num_hidden_layers"] * config["num_key_value_heads"] * head_dim
    return values * positions * width


def _table(rows: list[dict], config: dict, args) -> None:
    gpu = next((r["gpu"] for r in rows if "gpu" in r), "?")
    bandwidth = next((b for name, b in BANDWIDTH.items() if name in gpu), BANDWIDTH["H100"])
    position = args.prompt_len + args.new_tokens / 2
    print(f"\n{gpu}, prompt {args.prompt_len}, {args.new_tokens} new tokens, greedy; "
          f"bandwidth {bandwidth / 1e12:.2f} TB/s\n")  # fmt: skip
    print("| system | dtype | load s | TTFT ms | prefill tok/s | decode tok/s | decode vs mlx-lm "
          "| peak GPU GB | bandwidth |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    reference = {r["dtype"]: r.get("decode") for r in rows if r["system"] == "mlx-lm"}
    for r in rows:
        if r.get("failed"):
            print(f"| {r['system']} | {r['dtype']} | failed | | | | | | |")
            continue
        fraction = bytes_per_token(config, r["dtype"], args.group_size, position) * r["decode"]
        peer = reference.get(r["dtype"])
        ratio = f"{r['decode'] / peer:.2f}x" if peer else "-"
        print(f"| {r['system']} | {r['dtype']} | {r['load']:.2f} | {r['ttft'] * 1e3:.1f} | "
              f"{r['prefill']:.0f} | {r['decode']:.1f} | {ratio} | {r['peak'] / 1e9:.2f} | "
              f"{fraction / bandwidth:.0%} |")  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="bench/llm_size.py")
    parser.add_argument("--prepare", type=Path, default=None, metavar="DIR")
    parser.add_argument("--run", type=Path, default=None, metavar="DIR")
    parser.add_argument("--shape", default="llama-1b")
    parser.add_argument("--layers", type=int, default=None)
    parser.add_argument(
        "--holes", action="store_true",
        help="--prepare: a checkpoint whose shards are holes (no disk), its tiled values "
        "made as they are read (`read_tiles`): for a model larger than the disk",
    )  # fmt: skip
    parser.add_argument("--dtypes", default="bf16,int8,int4")
    parser.add_argument("--prompt-len", type=int, default=512)
    parser.add_argument("--new-tokens", type=int, default=256)
    parser.add_argument("--max-seq-len", type=int, default=1024)
    parser.add_argument("--group-size", type=int, default=64)
    parser.add_argument("--prefill-chunk", type=int, default=512)
    parser.add_argument("--work", type=Path, default=Path("/tmp/llm-size"))
    parser.add_argument("--generate", type=Path, default=REPO / "build/runtime/mlxd-generate")
    parser.add_argument("--split", action="store_true")
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="N",
        help="--run: measure ours and mlx-lm N times each, alternated; a row is the median run",
    )  # fmt: skip
    parser.add_argument("--without-run-ahead", default="", metavar="DTYPES")
    parser.add_argument(
        "--without-joining", default="", metavar="DTYPES",
        help="--prepare: also export these with products of one input apart "
        "(rows 'ours, not joined')",
    )  # fmt: skip
    parser.add_argument("--child", choices=("mlx_lm", "mlx_lm_split", "torch"), default=None)
    parser.add_argument("--child-checkpoint", default=None)
    parser.add_argument("--child-dtype", default=None)
    args = parser.parse_args(argv)
    args.dtypes = list(filter(None, args.dtypes.split(",")))
    args.without_run_ahead = set(filter(None, args.without_run_ahead.split(",")))
    args.without_joining = list(filter(None, args.without_joining.split(",")))
    if args.child:
        children = {"mlx_lm": child_mlx_lm, "mlx_lm_split": child_mlx_lm_split}
        children["torch"] = child_torch
        children[args.child](args)
    elif args.prepare:
        prepare(args)
    elif args.run:
        run(args)
    else:
        parser.error("--prepare DIR or --run DIR")
    return 0


if __name__ == "__main__":
    sys.exit(main())
