#include "thread_position.hpp"

#include "lane_exchange.hpp"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "runtime_abi.hpp"

using namespace llvm;

namespace cohort_loops {

// Loads of threadIdx.x/y/z (the thread-local itself) and of the row through
// current_position become the parameters. Returns whether anything else may
// still read the position: another use of either, or a call of a function
// defined here (it may read threadIdx).
bool forward_thread_position(Function& step, Argument* const (&position)[4]) {
  const DataLayout& layout = step.getParent()->getDataLayout();
  bool read_elsewhere = false;
  SmallVector<std::pair<LoadInst*, Value*>, 16> replaced;
  for (Instruction& inst : instructions(step)) {
    auto* call = dyn_cast<CallInst>(&inst);
    if (!call) continue;
    Function* callee = call->getCalledFunction();
    // (A shuffle the step lowers to the lane arrays is no call by then.)
    if (callee && !callee->isIntrinsic() && !callee->isDeclaration() && !lowerable_shuffle(*call))
      read_elsewhere = true;
    auto* tls = dyn_cast<IntrinsicInst>(call);
    if (!tls || tls->getIntrinsicID() != Intrinsic::threadlocal_address) continue;
    const StringRef name = tls->getArgOperand(0)->getName();
    if (name != current_position_symbol && name != thread_index_symbol) continue;
    // threadIdx's address is the position itself (its index); current_position holds a pointer to it.
    SmallVector<Value*, 4> positions;
    if (name == thread_index_symbol) {
      positions.push_back(tls);
    } else {
      for (User* user : tls->users()) {
        if (auto* pointer = dyn_cast<LoadInst>(user))
          positions.push_back(pointer);
        else
          read_elsewhere = true;
      }
    }
    for (Value* pointer : positions) {
      for (User* field_user : pointer->users()) {
        // The field read: a load of the pointer itself (index.x), or through a constant offset.
        APInt offset(64, 0);
        Value* address = field_user;
        if (auto* gep = dyn_cast<GEPOperator>(field_user)) {
          if (!gep->accumulateConstantOffset(layout, offset)) {
            read_elsewhere = true;
            continue;
          }
        } else if (auto* load = dyn_cast<LoadInst>(field_user); load && load->getPointerOperand() == pointer) {
          address = nullptr;
        } else {
          read_elsewhere = true;
          continue;
        }
        const std::uint64_t field = offset.getZExtValue();
        auto forward = [&](User* reader) {
          auto* load = dyn_cast<LoadInst>(reader);
          if (!load || !load->getType()->isIntegerTy(32) || field % 4 != 0 || field > 12 || load->isVolatile()) {
            read_elsewhere = true;
            return;
          }
          replaced.push_back({load, position[field / 4]});
        };
        if (!address)
          forward(field_user);
        else
          for (User* reader : address->users()) forward(reader);
      }
    }
  }
  for (auto& [load, value] : replaced) {
    load->replaceAllUsesWith(value);
    load->eraseFromParent();
  }
  return read_elsewhere;
}

}  // namespace cohort_loops
