// The records behind cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t on the
// host backend, shared by graphs.cpp (building, instantiating and launching
// graphs) and graph_capture.cpp (recording a stream's work into one).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "runtime_state.hpp"

struct CUgraphNode_st {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  std::vector<cudaGraphNode_t> dependencies;
  // A kernel node: what cudaGraphKernelNodeGetParams returns, and the launch.
  cudaKernelNodeParams kernel{};
  cohort::compat::launch_request request{};
  cohort::compat::kernel_call call;
  // Any other node: the operation (none for an empty node).
  std::function<cudaError_t()> run;

  cudaError_t execute(cudaStream_t stream) const {
    if (type == cudaGraphNodeTypeKernel) {
      cohort::compat::launch_request r = request;
      r.stream = stream;
      return call(r);
    }
    return run ? run() : cudaSuccess;
  }
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
};

struct CUgraphExec_st {
  std::vector<CUgraphNode_st> steps;               // copies of the graph's nodes, in order
  std::map<cudaGraphNode_t, std::size_t> step_of;  // the graph's node -> its step
};

namespace cohort::compat::detail {

// A new, empty graph, known to the runtime until cudaGraphDestroy.
cudaGraph_t new_graph();

}  // namespace cohort::compat::detail
