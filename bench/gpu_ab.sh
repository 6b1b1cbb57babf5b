#!/usr/bin/env bash
# Two versions of the runtime (and of a program) on one GPU machine, in one call, alternated,
# so that a change is measured against the machine's own noise (between calls, and from one
# process to the next in one call, the same program's decode moves by a fifth: take rounds
# enough). On the GPU machine after ../shared/GPU.md's
# install calls:
#   bash bench/gpu_ab.sh OLD_TREE ROUNDS NAME=A.pte.gz,B.pte.gz ...
# OLD_TREE holds an earlier checkout's runtime_cpp/, generated/ and pyproject.toml (copy them
# into an ignored folder such as .gpu/old and carry it); A runs on its build, B on this
# checkout's; OLD_TREE "." compares two programs on this checkout's one build. Each program's
# weights are its .ptd.gz beside it, as bench/llm_size.py --prepare writes them. Each round
# runs A then B (a 512-token prompt, 256 new tokens, greedy, one warm-up generation), and the
# table gives each round's decode tok/s, B over A's medians, the means, and the rounds B won.
set -euo pipefail
source /tmp/gpu/env.sh
OUT=${OUT:-/tmp/out}
old=$1 rounds=$2
shift 2
mkdir -p "$OUT"
source bench/gpu_build.sh
gpu_build /tmp/mlxd-build "$OUT" mlx_delegate mlxd-generate mlx-cuda
old_build=/tmp/mlxd-build
if [[ "$old" != "." ]]; then
  old_build=/tmp/ab-old
  (cd "$old" && gpu_build "$old_build" "$OUT" mlx_delegate mlxd-generate mlx-cuda)
fi
prompt=$(python3 -c "print(' '.join(str((7 * i + 3) % 512) for i in range(512)))")
unpack() {  # DIR/NAME.pte.gz -> /tmp/ab/TAG.pte (and its .ptd)
  python3 - "$1" "$2" <<'EOF'
import sys
from pathlib import Path
sys.path.insert(0, "bench")
from llm_size import _unpack
source, tag = Path(sys.argv[1]), sys.argv[2]
target = Path("/tmp/ab") / f"{tag}.pte"
target.parent.mkdir(exist_ok=True)
_unpack(source, target)
_unpack(source.with_name(source.name.replace(".pte.gz", ".ptd.gz")), target.with_suffix(".ptd"))
EOF
}
decode() {  # BUILD PTE -> decode tok/s
  "$1/mlxd-generate" "$2" --device gpu:0 --prompt-ids "$prompt" --max-new-tokens 256 \
    --ignore-eos --warmup 1 | sed -n 's/^decode: [0-9]* tokens, \([0-9.]*\).*/\1/p'
}
median_row() {  # NAME "A A ..." "B B ..." -> a summary row
  python3 - "$@" <<'EOF'
import statistics
import sys
name, a, b = sys.argv[1], *(list(map(float, x.split())) for x in sys.argv[2:])
ma, mb = statistics.median(a), statistics.median(b)
faster = sum(y > x for x, y in zip(a, b))
print(f"| {name} | {ma:.1f} | {mb:.1f} | {mb / ma:.3f} | {statistics.mean(a):.1f} | "
      f"{statistics.mean(b):.1f} | {faster} of {len(a)} |")
EOF
}
echo "| program | round | A tok/s | B tok/s |"
echo "|---|---|---|---|"
summary=""
for spec in "$@"; do
  name=${spec%%=*} pair=${spec#*=}
  unpack "${pair%%,*}" "$name-a"
  unpack "${pair#*,}" "$name-b"
  a=() b=()
  for r in $(seq "$rounds"); do
    a+=("$(decode "$old_build" "/tmp/ab/$name-a.pte")")
    b+=("$(decode /tmp/mlxd-build "/tmp/ab/$name-b.pte")")
    echo "| $name | $r | ${a[-1]} | ${b[-1]} |"
  done
  summary+=$(median_row "$name" "${a[*]}" "${b[*]}")$'\n'
done
echo
echo "| program | A median | B median | B / A | A mean | B mean | rounds B faster |"
echo "|---|---|---|---|---|---|---|"
printf '%s' "$summary"
