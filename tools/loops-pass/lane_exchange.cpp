#include "lane_exchange.hpp"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

namespace {
// lane_exchange's parameters: kind, operation, mask, value, argument, site;
// lane_combine's the same without the argument.
enum : unsigned { kind_arg, mask_arg = 2, value_arg, packed_arg, where_arg, arg_count };
constexpr unsigned combine_where_arg = packed_arg, combine_arg_count = where_arg;

bool is_lane_combine(const Function& f) { return f.getName().starts_with(lane_combine_prefix); }
// tile_exchange's parameters are lane_exchange's, the tile's size in the mask's place.
bool is_tile_exchange(const Function& f) { return f.getName().starts_with(tile_exchange_prefix); }
constexpr unsigned tile_size_arg = 1;
// tile_fold's: kind, size, the lanes' fold, value, the fold's collective, site, its parameters (the collective
// and parameters for fibers); tile_vote's the same without the parameters. Both a function over the lanes.
bool is_tile_fold(const Function& f) { return f.getName().starts_with(tile_fold_prefix); }
bool is_tile_vote(const Function& f) { return f.getName().starts_with(tile_vote_prefix); }
// tile_match's are tile_vote's.
bool is_tile_match(const Function& f) { return f.getName().starts_with(tile_match_prefix); }
constexpr unsigned fold_lanes_arg = 2, fold_where_arg = 5, fold_arg_count = 7, vote_arg_count = 6;
// The kernel parameter `mask` is, as it is or extended to 64 bits.
std::optional<mask_parameter> parameter_mask(const Value* mask) {
  bool sign_extended = false;
  if (const auto* extension = dyn_cast<CastInst>(mask);
      extension && (isa<ZExtInst>(extension) || isa<SExtInst>(extension))) {
    sign_extended = isa<SExtInst>(extension);
    mask = extension->getOperand(0);
  }
  const auto* argument = dyn_cast<Argument>(mask);
  if (!argument || !argument->getType()->isIntegerTy() || argument->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  return mask_parameter{argument->getArgNo(), sign_extended};
}
}  // namespace

Value* shuffle_argument(const CallInst& call) {
  // A vote's, reduction's, __syncwarp's, match's or a tile's fold's, vote's or match's: none, as uniform as a
  // constant.
  const Function& f = *call.getCalledFunction();
  if (is_lane_combine(f) || is_tile_fold(f) || is_tile_vote(f) || is_tile_match(f))
    return ConstantInt::get(Type::getInt64Ty(call.getContext()), 0);
  return call.getArgOperand(packed_arg);
}

bool is_lane_exchange(const Function& f) {
  return f.getName().starts_with(lane_exchange_prefix) || is_lane_combine(f) || is_tile_exchange(f) ||
         is_tile_fold(f) || is_tile_vote(f) || is_tile_match(f);
}

std::optional<lane_point> lowerable_shuffle(const CallInst& call) {
  const Function* callee = call.getCalledFunction();
  if (!callee || !is_lane_exchange(*callee)) return std::nullopt;
  const bool combine = is_lane_combine(*callee), match = is_tile_match(*callee);
  const bool vote = match || is_tile_vote(*callee);  // tile_vote's parameters
  const bool fold = vote || is_tile_fold(*callee);   // a function over the lanes
  const bool tile = fold || is_tile_exchange(*callee);
  const unsigned count = combine ? combine_arg_count : vote ? vote_arg_count : fold ? fold_arg_count : arg_count;
  if (call.arg_size() != count) return std::nullopt;
  const auto* kind = dyn_cast<ConstantInt>(call.getArgOperand(kind_arg));
  const auto* mask = dyn_cast<ConstantInt>(call.getArgOperand(tile ? tile_size_arg : mask_arg));
  // A warp operation's mask may be a kernel parameter instead (a tile's size is always a constant).
  const std::optional<mask_parameter> parameter =
      mask || tile ? std::nullopt : parameter_mask(call.getArgOperand(mask_arg));
  auto* where = dyn_cast<Constant>(call.getArgOperand(combine ? combine_where_arg : fold ? fold_where_arg : where_arg));
  auto* lanes = fold ? dyn_cast<Function>(call.getArgOperand(fold_lanes_arg)->stripPointerCasts()) : nullptr;
  Type* value = call.getArgOperand(value_arg)->getType();
  const std::uint64_t first_kind = match  ? tile_match_any_kind
                                   : vote ? tile_vote_kind
                                   : fold ? tile_fold_kind
                                   : tile ? first_tile_kind
                                          : (combine ? last_shuffle_kind + 1 : 0);
  const std::uint64_t last_kind = match  ? tile_match_all_kind
                                  : fold ? first_kind
                                  : tile ? tile_sync_kind
                                         : (combine ? last_combine_kind : last_shuffle_kind);
  if (!kind || kind->getZExtValue() < first_kind || kind->getZExtValue() > last_kind || (!mask && !parameter) ||
      !where || !where->getType()->isPointerTy() || call.getType() != value || !value->isSized() || (fold && !lanes))
    return std::nullopt;
  // A tile of 1 to 32 consecutive ranks (wider tiles keep the records: their argument must be uniform).
  if (tile && (mask->getZExtValue() == 0 || mask->getZExtValue() > 32 || !isPowerOf2_64(mask->getZExtValue())))
    return std::nullopt;
  const std::uint64_t size = call.getModule()->getDataLayout().getTypeAllocSize(value).getFixedValue();
  if (size == 0 || size > 32 || !isPowerOf2_64(size)) return std::nullopt;
  return lane_point{
      unsigned(kind->getZExtValue()), unsigned(size), mask ? mask->getZExtValue() : 0, parameter, where, lanes};
}

LoadInst* lower_shuffle(CallInst& call, const lane_point& point, BasicBlock& resume, Value* x, Value* row,
                        Value* lane_in, Value* lane_arg, Value* lane_out) {
  // The rank's offsets on each side, each recomputed where the region starts.
  auto offsets = [&](IRBuilder<>& b) {
    Value* rank = b.CreateZExt(b.CreateAdd(row, x, "lane_rank"), b.getInt64Ty());
    return std::pair(rank, b.CreateMul(rank, b.getInt64(point.size), "lane_offset", true, true));
  };
  // Each lane's bytes lie `size` apart in 64-byte aligned arrays.
  const Align aligned(point.size);
  IRBuilder<> before(&call);
  Type* i8 = before.getInt8Ty();
  const auto [rank, offset] = offsets(before);
  // (__syncwarp and a tile's sync have no value, a vote, reduction or tile's fold no argument.)
  const bool shuffle =
      point.kind <= last_shuffle_kind || (point.kind >= first_tile_kind && point.kind < tile_sync_kind);
  if (point.kind != sync_kind && point.kind != tile_sync_kind)
    before.CreateAlignedStore(call.getArgOperand(value_arg), before.CreateInBoundsGEP(i8, lane_in, offset), aligned);
  if (shuffle)
    before.CreateAlignedStore(
        call.getArgOperand(packed_arg),
        point.uniform_arg ? lane_arg : before.CreateInBoundsGEP(before.getInt64Ty(), lane_arg, rank), Align(8));
  IRBuilder<> after(&*resume.getFirstInsertionPt());
  LoadInst* result = after.CreateAlignedLoad(
      call.getType(), after.CreateInBoundsGEP(i8, lane_out, offsets(after).second), aligned, "shuffled");
  call.replaceAllUsesWith(result);
  return result;
}

}  // namespace cohort_loops
