#!/usr/bin/env bash
# Exits 0 where an NVIDIA GPU answers (nvidia-smi lists one), 1 otherwise:
# scripts/test.sh and scripts/main.sh choose what to build by it.
command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1
