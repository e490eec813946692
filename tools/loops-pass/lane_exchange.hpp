// Shuffles lowered to the block's lane arrays (docs/loops-engine.md, "Warp-level
// operations"): a `__shfl*_sync` whose mask is a constant needs none of the
// fiber engine's records. Its group is the caller's whole warp (the runtime
// checks once per block that the mask names every lane, failing the launch as
// the first lane outside it does on fibers), so the region before stores each
// lane's value and argument into the lane arrays at its rank, the block
// function copies each lane's source into lane_out (cohort_loops_lane_exchange),
// and the region after loads its result from there: plain loads and stores in
// the thread loops, which the vectorizer can take. Votes, `__reduce_*_sync`
// and `__syncwarp` take the same path: each lane's value in, its warp's result
// out (for `__syncwarp`, nothing but the mask's check); so do the shuffles and
// sync of a thread_block_tile of 32 or fewer, per tile of consecutive ranks,
// and its cg::reduce and scans with a stateless operator (tile_fold), its
// votes (tile_vote) and matches (tile_match), whose header-defined function
// over each tile the block function's exchange runs. `__match_*_sync` takes the
// votes' path, each lane's value as its key (match_key.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include "llvm/IR/Constant.h"
#include "llvm/IR/Instructions.h"

namespace cohort_loops {

// A warp operation's mask that is the kernel's parameter `index` (as it is, or zero- or sign-extended to 64 bits):
// the same for every thread of the launch, so checked once a block as a constant mask is.
struct mask_parameter {
  unsigned index;
  bool sign_extended;
};

struct lane_point {
  unsigned kind;       // shuffle_kind (idx, up, down, xor), combine_kind (detail/host/language/warp_intrinsics.hpp)
                       // or tile_kind (detail/host/tile_primitives.hpp)
  unsigned size;       // bytes a lane's value takes in the arrays: 1 to 32, a power of two
  std::uint64_t mask;  // the warp's mask (unless `parameter`); for a tile's operation, the tile's size
  std::optional<mask_parameter> parameter;  // where the warp's mask is a kernel parameter
  llvm::Constant* where;                    // the call's std::source_location, one pointer
  // A tile's fold (cg::reduce, a scan), vote or match: the header's function over the tiles in the arrays; else null.
  llvm::Function* lanes = nullptr;
  // Every thread passes the same operand and width (uniformity.hpp): stored
  // once, at lane_arg[0], and the sources computed once per warp.
  bool uniform_arg = false;
};

// Whether `f` is cohort's shuffle exchange (lane_exchange<T>, runtime_abi.hpp),
// its vote, reduction and __syncwarp (lane_combine<T>), a tile's shuffle or
// sync (tile_exchange<T>), fold (tile_fold), vote (tile_vote) or match (tile_match), which take the same path.
bool is_lane_exchange(const llvm::Function& f);
// The shuffle (or vote, reduction, __syncwarp, match) `call` lowers to, where its kind
// and site are constants, its mask a constant or a kernel parameter (a function
// argument of `call`'s function: in the kernel and in its step function, whose
// first parameters are the kernel's, thread positions are never arguments of
// the kernel's), and its value passes in one register of the type
// it returns; otherwise it stays a rendezvous (its function inlined, checked
// through cohort_loops_exchange).
std::optional<lane_point> lowerable_shuffle(const llvm::CallInst& call);
// The shuffle's packed operand and width (a constant 0 for the others).
llvm::Value* shuffle_argument(const llvm::CallInst& call);
// `call`, which ends its block (a point just split; `resume` starts the region
// after), stores its lane's value and argument at its rank (row + x) in the
// arrays; its result becomes a load from lane_out at the start of `resume`,
// which is returned.
llvm::LoadInst* lower_shuffle(llvm::CallInst& call, const lane_point& point, llvm::BasicBlock& resume, llvm::Value* x,
                              llvm::Value* row, llvm::Value* lane_in, llvm::Value* lane_arg, llvm::Value* lane_out);

}  // namespace cohort_loops
