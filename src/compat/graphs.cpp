// CUDA graphs on the host backend. A graph is its nodes in the order they
// were added: every dependency names a node added before (the explicit API
// takes existing nodes; a capture, graph_capture.cpp, depends on the stream's
// work so far), so that order is one of the graph's topological orders, and
// launching the graph runs the nodes in it, each to completion, as the host
// backend runs every stream's work.
#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "graph_state.hpp"
#include "stream_order.hpp"

namespace cohort::compat {

namespace {

using namespace detail;

std::mutex graphs_mutex;
std::set<cudaGraph_t>& graphs() {
  static std::set<cudaGraph_t> live;
  return live;
}
std::set<cudaGraphExec_t>& execs() {
  static std::set<cudaGraphExec_t> live;
  return live;
}

bool live_graph(cudaGraph_t g) {
  std::lock_guard lock(graphs_mutex);
  return graphs().count(g) != 0;
}
bool live_exec(cudaGraphExec_t e) {
  std::lock_guard lock(graphs_mutex);
  return execs().count(e) != 0;
}
cudaError_t bad_graph(const char* call, const void* g) {
  return fail(cudaErrorInvalidValue, std::string(call) + ": " + address(g) +
                                         " is not a graph made by cudaGraphCreate, cudaGraphClone or "
                                         "cudaStreamEndCapture, or it was destroyed");
}
cudaError_t bad_exec(const char* call, const void* e) {
  return fail(cudaErrorInvalidValue,
              std::string(call) + ": " + address(e) +
                  " is not an executable graph made by cudaGraphInstantiate, or it was destroyed");
}

// Adds `node` to `graph` after `dependencies`, which must be nodes of it.
cudaError_t add_node(const char* call, cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                     std::size_t count, std::unique_ptr<CUgraphNode_st> node) {
  if (out == nullptr) return fail(cudaErrorInvalidValue, std::string(call) + ": a null node pointer");
  if (!live_graph(graph)) return bad_graph(call, graph);
  if (count != 0 && dependencies == nullptr)
    return fail(cudaErrorInvalidValue, std::string(call) + ": dependencies counted but not given");
  for (std::size_t i = 0; i < count; ++i) {
    const bool member = std::any_of(graph->nodes.begin(), graph->nodes.end(),
                                    [&](const auto& n) { return n.get() == dependencies[i]; });
    if (!member)
      return fail(cudaErrorInvalidValue, std::string(call) + ": dependency " + address(dependencies[i]) +
                                             " is not a node of graph " + address(graph));
    node->dependencies.push_back(dependencies[i]);
  }
  *out = node.get();
  graph->nodes.push_back(std::move(node));
  return cudaSuccess;
}

// A kernel node's launch from its parameters (void* function, void** arguments).
cudaError_t kernel_node_from(const char* call, const cudaKernelNodeParams* p, CUgraphNode_st& node) {
  if (p == nullptr || p->func == nullptr)
    return fail(cudaErrorInvalidValue, std::string(call) + ": null kernel node parameters or function");
  if (p->extra != nullptr)
    return fail(cudaErrorNotSupported, std::string(call) +
                                           ": kernel arguments through `extra` are not supported on "
                                           "the host backend: pass them in kernelParams");
  kernel_call bound = bind_kernel_arguments(p->func, p->kernelParams);
  if (!bound)
    return fail(cudaErrorInvalidDeviceFunction,
                std::string(call) + ": the kernel at " + address(p->func) +
                    " is unknown to cohort's runtime, so its parameter types are too: compile its file with "
                    "cohort-cxx (which registers every __global__ function that is not a template)");
  node.type = cudaGraphNodeTypeKernel;
  node.kernel = *p;
  node.request = {p->gridDim, p->blockDim, p->sharedMemBytes, nullptr, false};
  node.call = std::move(bound);
  return cudaSuccess;
}

// Fills width x height elements of elementSize bytes (1, 2 or 4) with value, rows pitch apart.
cudaError_t fill_elements(const cudaMemsetParams& p) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4)
    return fail(cudaErrorInvalidValue,
                "a memset node's elementSize is " + std::to_string(p.elementSize) + " (1, 2 or 4 bytes)");
  const std::size_t row = p.width * p.elementSize;
  const std::size_t pitch = p.height > 1 ? p.pitch : row;
  if (p.height > 1 && pitch < row)
    return fail(cudaErrorInvalidPitchValue, "a memset node's rows are wider than its pitch");
  // cudaMemset2D checks the whole range as device memory (and zeroes it) before the elements are written.
  if (const cudaError_t e = cudaMemset2D(p.dst, pitch == 0 ? row : pitch, 0, row, p.height == 0 ? 1 : p.height))
    return e;
  for (std::size_t y = 0; y < std::max<std::size_t>(p.height, 1); ++y) {
    char* r = static_cast<char*>(p.dst) + y * pitch;
    for (std::size_t x = 0; x < p.width; ++x) std::memcpy(r + x * p.elementSize, &p.value, p.elementSize);
  }
  return cudaSuccess;
}

}  // namespace

cudaGraph_t detail::new_graph() {
  auto* g = new CUgraph_st;
  std::lock_guard lock(graphs_mutex);
  graphs().insert(g);
  return g;
}

}  // namespace cohort::compat

using namespace cohort::compat;
using namespace cohort::compat::detail;

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  if (const cudaError_t e = sticky()) return e;
  if (pGraph == nullptr || flags != 0)
    return fail(cudaErrorInvalidValue, "cudaGraphCreate: a null graph or flags not 0");
  *pGraph = new_graph();
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  {
    std::lock_guard lock(graphs_mutex);
    if (graphs().erase(graph) == 0) return bad_graph("cudaGraphDestroy", graph);
  }
  delete graph;
  return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  if (pGraphClone == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphClone: a null graph pointer");
  if (!live_graph(originalGraph)) return bad_graph("cudaGraphClone", originalGraph);
  cudaGraph_t copy = new_graph();
  std::map<cudaGraphNode_t, cudaGraphNode_t> counterpart;
  for (const auto& n : originalGraph->nodes) {
    auto node = std::make_unique<CUgraphNode_st>(*n);
    for (cudaGraphNode_t& d : node->dependencies) d = counterpart.at(d);
    counterpart[n.get()] = node.get();
    copy->nodes.push_back(std::move(node));
  }
  *pGraphClone = copy;
  return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  if (numNodes == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphGetNodes: a null count");
  if (!live_graph(graph)) return bad_graph("cudaGraphGetNodes", graph);
  if (nodes == nullptr) {
    *numNodes = graph->nodes.size();
    return cudaSuccess;
  }
  const std::size_t n = std::min(*numNodes, graph->nodes.size());
  for (std::size_t i = 0; i < n; ++i) nodes[i] = graph->nodes[i].get();
  *numNodes = n;
  return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes, size_t* pNumRootNodes) {
  if (pNumRootNodes == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphGetRootNodes: a null count");
  if (!live_graph(graph)) return bad_graph("cudaGraphGetRootNodes", graph);
  std::size_t found = 0;
  for (const auto& n : graph->nodes)
    if (n->dependencies.empty()) {
      if (pRootNodes != nullptr && found < *pNumRootNodes) pRootNodes[found] = n.get();
      ++found;
    }
  *pNumRootNodes = pRootNodes == nullptr ? found : std::min(found, *pNumRootNodes);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  if (node == nullptr || pType == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphNodeGetType: a null argument");
  *pType = node->type;
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaKernelNodeParams* pNodeParams) {
  auto node = std::make_unique<CUgraphNode_st>();
  if (const cudaError_t e = kernel_node_from("cudaGraphAddKernelNode", pNodeParams, *node)) return e;
  return add_node("cudaGraphAddKernelNode", pGraphNode, graph, pDependencies, numDependencies, std::move(node));
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* pNodeParams) {
  if (node == nullptr || pNodeParams == nullptr || node->type != cudaGraphNodeTypeKernel)
    return fail(cudaErrorInvalidValue, "cudaGraphKernelNodeGetParams: not a kernel node");
  *pNodeParams = node->kernel;
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* pNodeParams) {
  if (node == nullptr || node->type != cudaGraphNodeTypeKernel)
    return fail(cudaErrorInvalidValue, "cudaGraphKernelNodeSetParams: not a kernel node");
  return kernel_node_from("cudaGraphKernelNodeSetParams", pNodeParams, *node);
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemcpy3DParms* pCopyParams) {
  if (pCopyParams == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphAddMemcpyNode: null copy parameters");
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = cudaGraphNodeTypeMemcpy;
  node->run = [copy = *pCopyParams] { return cudaMemcpy3D(&copy); };
  return add_node("cudaGraphAddMemcpyNode", pGraphNode, graph, pDependencies, numDependencies, std::move(node));
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                     const void* src, size_t count, cudaMemcpyKind kind) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = cudaGraphNodeTypeMemcpy;
  node->run = [=] { return cudaMemcpy(dst, src, count, kind); };
  return add_node("cudaGraphAddMemcpyNode1D", pGraphNode, graph, pDependencies, numDependencies, std::move(node));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemsetParams* pMemsetParams) {
  if (pMemsetParams == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphAddMemsetNode: null memset parameters");
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = cudaGraphNodeTypeMemset;
  node->run = [p = *pMemsetParams] { return fill_elements(p); };
  return add_node("cudaGraphAddMemsetNode", pGraphNode, graph, pDependencies, numDependencies, std::move(node));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, const cudaHostNodeParams* pNodeParams) {
  if (pNodeParams == nullptr || pNodeParams->fn == nullptr)
    return fail(cudaErrorInvalidValue, "cudaGraphAddHostNode: null parameters or function");
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = cudaGraphNodeTypeHost;
  node->run = [p = *pNodeParams] {
    p.fn(p.userData);
    return cudaSuccess;
  };
  return add_node("cudaGraphAddHostNode", pGraphNode, graph, pDependencies, numDependencies, std::move(node));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                  size_t numDependencies) {
  return add_node("cudaGraphAddEmptyNode", pGraphNode, graph, pDependencies, numDependencies,
                  std::make_unique<CUgraphNode_st>());
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long) {
  if (const cudaError_t e = sticky()) return e;
  if (pGraphExec == nullptr) return fail(cudaErrorInvalidValue, "cudaGraphInstantiate: a null pointer");
  if (!live_graph(graph)) return bad_graph("cudaGraphInstantiate", graph);
  auto* exec = new CUgraphExec_st;
  for (const auto& n : graph->nodes) {
    exec->step_of[n.get()] = exec->steps.size();
    exec->steps.push_back(*n);
  }
  {
    std::lock_guard lock(graphs_mutex);
    execs().insert(exec);
  }
  *pGraphExec = exec;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* pNodeParams) {
  if (!live_exec(hGraphExec)) return bad_exec("cudaGraphExecKernelNodeSetParams", hGraphExec);
  const auto it = hGraphExec->step_of.find(node);
  if (it == hGraphExec->step_of.end() || hGraphExec->steps[it->second].type != cudaGraphNodeTypeKernel)
    return fail(cudaErrorInvalidValue, "cudaGraphExecKernelNodeSetParams: " + address(node) +
                                           " is not a kernel node of the graph this one was instantiated from");
  CUgraphNode_st updated = hGraphExec->steps[it->second];
  if (const cudaError_t e = kernel_node_from("cudaGraphExecKernelNodeSetParams", pNodeParams, updated)) return e;
  hGraphExec->steps[it->second] = std::move(updated);
  return cudaSuccess;
}

// The executable graph takes the parameters of `hGraph`'s nodes when both
// have the same nodes, of the same types, in the same order (kernels: the same
// functions), as CUDA's update requires.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo) {
  if (!live_exec(hGraphExec)) return bad_exec("cudaGraphExecUpdate", hGraphExec);
  if (!live_graph(hGraph)) return bad_graph("cudaGraphExecUpdate", hGraph);
  cudaGraphExecUpdateResultInfo info{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  if (hGraph->nodes.size() != hGraphExec->steps.size()) info.result = cudaGraphExecUpdateErrorTopologyChanged;
  for (std::size_t i = 0; info.result == cudaGraphExecUpdateSuccess && i < hGraph->nodes.size(); ++i) {
    const CUgraphNode_st& n = *hGraph->nodes[i];
    if (n.type != hGraphExec->steps[i].type)
      info.result = cudaGraphExecUpdateErrorNodeTypeChanged;
    else if (n.type == cudaGraphNodeTypeKernel && n.kernel.func != hGraphExec->steps[i].kernel.func)
      info.result = cudaGraphExecUpdateErrorFunctionChanged;
    if (info.result != cudaGraphExecUpdateSuccess) info.errorNode = hGraph->nodes[i].get();
  }
  if (resultInfo != nullptr) *resultInfo = info;
  if (info.result != cudaGraphExecUpdateSuccess)
    return fail(cudaErrorGraphExecUpdateFailure,
                "cudaGraphExecUpdate: the graph's nodes differ from the executable graph's "
                "(their number, a type or a kernel): instantiate it instead");
  hGraphExec->step_of.clear();
  for (std::size_t i = 0; i < hGraph->nodes.size(); ++i) {
    hGraphExec->steps[i] = *hGraph->nodes[i];
    hGraphExec->step_of[hGraph->nodes[i].get()] = i;
  }
  return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (const cudaError_t e = sticky()) return e;
  if (!live_exec(graphExec)) return bad_exec("cudaGraphLaunch", graphExec);
  if (!valid_stream(stream)) return bad_stream("cudaGraphLaunch", stream);
  if (capturing(stream))
    return fail(cudaErrorStreamCaptureUnsupported,
                "cudaGraphLaunch: launching a graph into a stream being captured is not supported on the host backend");
  // The graph is one piece of the stream's work: behind the work issued to the
  // stream before it, its nodes then run in order, each to completion (work
  // issued from a stream's own thread runs there and then: runs_inline).
  const cudaGraphExec_t exec = graphExec;
  return issue("cudaGraphLaunch", stream, task_kind::work, [exec, stream](cudaError_t) {
    for (const CUgraphNode_st& step : exec->steps)
      if (const cudaError_t e = step.execute(stream))
        throw cohort::error(cohort::errc::runtime,
                            std::string("cudaGraphLaunch: a node of the graph failed: ") + cudaGetErrorString(e));
  });
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  if (!live_exec(graphExec)) return bad_exec("cudaGraphUpload", graphExec);
  return valid_stream(stream) ? cudaSuccess : bad_stream("cudaGraphUpload", stream);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  {
    std::lock_guard lock(graphs_mutex);
    if (execs().erase(graphExec) == 0) return bad_exec("cudaGraphExecDestroy", graphExec);
  }
  delete graphExec;
  return cudaSuccess;
}
