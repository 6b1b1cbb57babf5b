# The two commands: `make demo` (the main job) and `make test` (all tests).
# Each does every set-up step itself: venv, pinned installs, codegen check, C++ build.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
JOBS ?= 2

.PHONY: demo test setup codegen-check generate runtime bench clean

demo: codegen-check runtime
	$(PY) -m mlx_delegate demo

test: codegen-check runtime
	$(PY) -m pytest -n $(JOBS) -q

setup: $(INSTALLED)

# The editable install builds the C++ runtime into build/runtime (scikit-build-core, without
# build isolation: against this venv's wheels, installed first with the build backend from
# [build-system]); `runtime` then finds that tree built.
$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'], sep='\n')" \
	  > $(VENV)/build-requires.txt
	@# --no-compile: Python compiles a module when it is first imported; compiling every file
	@# of torch, transformers and executorch at install took a minute and a quarter here.
	$(PY) -m pip install --disable-pip-version-check -q --no-compile -r $(VENV)/build-requires.txt
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PY) -m pip install --disable-pip-version-check -q \
	  --no-compile --no-build-isolation -e .
	@# Only a speed-up (MLX's CPU JIT builds kernels 5x faster): set-up goes on without it.
	$(PY) -m mlx_delegate precompile-jit || echo "set-up goes on without the precompiled header"
	touch $@

codegen-check: $(INSTALLED)
	$(PY) -m codegen generate --check

generate: $(INSTALLED)
	$(PY) -m codegen generate

runtime: $(INSTALLED)
	JOBS=$(JOBS) PYTHON=$(PY) bash runtime_cpp/build.sh

bench: $(INSTALLED)
	$(PY) bench/codegen.py

clean:
	rm -rf build .cache
