"""Pretty printers: dim3 and uint3 as (x, y, z), and cohort's groups with the
rank and size they have for the GPU thread gdb shows (a `cohort thread`
view's, else the OS thread's running thread). A group object holds little of
its own on the host (a thread_block nothing, a tile its place among its
parent's tiles, a coalesced group its lanes): the rest follows from the
thread, as the group's member functions compute it."""

import re

import gdb

from . import fiber_view, records


class Triple:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        return "(%d, %d, %d)" % tuple(int(self.value[f]) for f in "xyz")


def _shown_thread():
    """(rank in block, block_record) of the GPU thread gdb shows, or None outside a kernel."""
    try:
        block = records.evaluate(records.HOST + "current_block")
    except gdb.error:
        return None
    if int(block) == 0:
        return None
    block = block.dereference()
    view = fiber_view.active
    if view is not None and view.os_thread == gdb.selected_thread():
        return view.thread.rank, block
    position = records.evaluate(records.HOST + "current_position")
    if int(position) == 0:
        return None
    return int(position["row"]) + int(records.thread_index()["x"]), block


def _volume(v):
    return int(v["x"]) * int(v["y"]) * int(v["z"])


class ThreadBlock:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        shown = _shown_thread()
        if shown is None:
            return "thread_block (outside a kernel)"
        rank, block = shown
        return "thread_block {rank %d of %d, block %s}" % (
            rank, int(block["thread_count"]), Triple(block["block_index"]).to_string())


class Tile:
    def __init__(self, value, size):
        self.value = value
        self.size = size

    def to_string(self):
        meta = "tile %d of %d" % (int(self.value["meta_rank_"]), int(self.value["meta_size_"]))
        shown = _shown_thread()
        if shown is None:
            return "thread_block_tile<%d> {%s}" % (self.size, meta)
        rank, block = shown
        base = rank - rank % self.size
        count = min(self.size, int(block["thread_count"]) - base)
        return "thread_block_tile<%d> {rank %d of %d, %s}" % (self.size, rank - base, count, meta)


class GridGroup:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        shown = _shown_thread()
        if shown is None:
            return "grid_group (outside a kernel)"
        rank, block = shown
        threads = int(block["thread_count"])
        index, grid = block["block_index"], block["grid_dim"]
        linear = int(index["x"]) + int(grid["x"]) * (int(index["y"]) + int(grid["y"]) * int(index["z"]))
        return "grid_group {rank %d of %d, block %d of %d}" % (
            linear * threads + rank, _volume(grid) * threads, linear, _volume(grid))


class CoalescedGroup:
    def __init__(self, value):
        self.value = value

    def to_string(self):
        lanes = int(self.value["lanes_"])
        meta = "lanes 0x%x, group %d of %d" % (lanes, int(self.value["meta_rank_"]), int(self.value["meta_size_"]))
        count = bin(lanes).count("1")
        shown = _shown_thread()
        if shown is None:
            return "coalesced_group {size %d, %s}" % (count, meta)
        rank, block = shown
        lane = rank % int(block["warp_size"])
        below = bin(lanes & ((1 << lane) - 1)).count("1")
        return "coalesced_group {rank %d of %d, %s}" % (below, count, meta)


class ThreadGroup:
    """The base class, as a `thread_group&` holds any group: its kind and what it stores."""

    def __init__(self, value):
        self.value = value

    def to_string(self):
        kind = records._enumerator(self.value["kind_"])
        data = self.value["data_"]
        if kind == "tile":
            return "thread_group {tile of %d}" % int(data["tile_size"])
        if kind == "coalesced":
            return "thread_group {coalesced, lanes 0x%x}" % int(data["lanes"])
        return "thread_group {%s}" % kind


_TILE = re.compile(r"^cohort::thread_block_tile<(\d+)u?,")


def lookup(value):
    t = value.type.strip_typedefs().unqualified()
    if t.code == gdb.TYPE_CODE_REF:
        return None
    name = t.tag or t.name
    if name is None:
        return None
    if name in ("cohort::host::dim3", "cohort::host::uint3", "dim3", "uint3"):
        return Triple(value)
    if name == "cohort::thread_block":
        return ThreadBlock(value)
    if name == "cohort::grid_group":
        return GridGroup(value)
    if name == "cohort::coalesced_group":
        return CoalescedGroup(value)
    if name == "cohort::thread_group":
        return ThreadGroup(value)
    m = _TILE.match(name)
    if m:
        return Tile(value, int(m.group(1)))
    return None


def register(objfile):
    """Adds the printers to `objfile` (the program that carries the loader), or globally."""
    target = objfile if objfile is not None else gdb
    if lookup not in target.pretty_printers:
        target.pretty_printers.append(lookup)
