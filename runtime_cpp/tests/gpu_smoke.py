"""Smoke test of the backend plugins on a machine with a GPU (and the CPU one).

    python3 runtime_cpp/tests/gpu_smoke.py PAYLOAD_DIR OUT_DIR

Needs MLX_DELEGATE_HOST_LIB (or build/runtime) and numpy. PAYLOAD_DIR holds
linear_gelu.mlxg + its constants/inputs/reference (written on the
development machine by runtime_cpp/tests/make_gpu_payload.py). Prints and
writes a JSON summary: loaded backends, every candidate's status, builtin
matmul correctness and GFLOP/s per device, program results vs the reference.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from mlx_delegate.host import backends


def main() -> int:
    payload_dir, out_dir = Path(sys.argv[1]), Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    summary: dict = {"load_all": backends.load_all()}
    summary["backends"] = [
        b.__dict__ | {"device_properties": list(b.device_properties)} for b in backends.list()
    ]
    summary["report"] = [c.__dict__ for c in backends.report()]
    summary["gpu_count"] = backends.device_count("gpu")
    rng = np.random.default_rng(0)
    devices = ["cpu"] + [f"gpu:{i}" for i in range(summary["gpu_count"])]
    summary["matmul"] = {}
    for dev in devices:
        for n in (1024, 4096):
            a = rng.standard_normal((n, n), dtype=np.float32)
            b = rng.standard_normal((n, n), dtype=np.float32)
            out, sec = backends.run_builtin_f32(dev, "matmul", a, b, repeat=5 if n == 1024 else 3)
            ref = a.astype(np.float64) @ b.astype(np.float64)
            summary["matmul"][f"{dev} {n}"] = {
                "gflops": 2 * n**3 / sec / 1e9,
                "max_rel_err": float(np.abs(out - ref).max() / np.abs(ref).max()),
            }
    consts = dict(np.load(payload_dir / "constants.npz"))
    x = np.load(payload_dir / "x.npy")
    ref = np.load(payload_dir / "ref.npy")
    payload = (payload_dir / "linear_gelu.mlxg").read_bytes()
    summary["program"] = {}
    for dev in devices:
        p = backends.load_program(payload, consts, device=dev)
        (out,) = p.run(x)
        summary["program"][dev] = {
            "backend": p.backend,
            "max_abs_err_vs_torch_cpu": float(np.abs(out - ref).max()),
            # MLX's CUDA matmul uses TF32 for float32: compare relative to the range
            "max_rel_err_vs_torch_cpu": float(np.abs(out - ref).max() / np.abs(ref).max()),
        }
    summary["memory"] = {dev: backends.memory("get_peak_memory", dev) for dev in devices}
    text = json.dumps(summary, indent=1, default=str)
    (out_dir / "gpu_smoke.json").write_text(text)
    print(text)
    ok = all(v["max_rel_err"] < 5e-3 for v in summary["matmul"].values()) and all(
        v["max_rel_err_vs_torch_cpu"] < 5e-3 for v in summary["program"].values()
    )
    print("GPU SMOKE", "OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
