"""The op suite and the model zoo on another machine (a CUDA GPU), in fp32,
bf16 and fp16, checked against PyTorch eager outputs recorded here.

    python -m testbench.cuda_suite export DIR [-j N] [--dtypes fp32,bf16,fp16] [NAMES...]
    python3 -m testbench.cuda_suite run DIR --runner build/runtime/mlxd-run --device gpu:0

`export` (here: torch, ExecuTorch) lowers every op-test configuration
(cases.all_cases) and every zoo model (models.py) with MLXPartitioner in
each dtype and writes the .pte, its inputs and eager's outputs as mlxd-run
.bin files, the tolerances and a manifest into DIR, then packs DIR into
DIR.tar.gz. `run` (there: numpy and the C++ runner only; this package's
run side imports neither torch nor ExecuTorch) runs them all through
`mlxd-run --batch`, compares with the recorded outputs by the framework's
rule (tolerance.py) and prints a pass table per dtype.

The dtypes: fp32 is the suite as written. bf16 and fp16 cast every float32
input, parameter and buffer (framework.cast_float32); integer inputs and the
floats a configuration chose on purpose (float64, float16...) stay. A
configuration with nothing to cast, or that PyTorch eager cannot run in that
dtype, is "n/a" with the reason. The zoo models run in all three (in make
test, models.py lists fewer: bf16 and fp16 are slow on the CPU for some)."""
