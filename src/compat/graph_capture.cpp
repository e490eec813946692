// Stream capture on the host backend: while a stream is captured, its
// asynchronous calls become nodes of the capture's graph (graph_capture.hpp),
// each depending on the stream's work captured before it. An event recorded on
// a captured stream stands for that work; another stream that waits for the
// event joins the capture after it (fork and join).
#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "graph_state.hpp"

namespace cohort::compat {

std::atomic<int> captures_in_progress{0};

namespace {

using namespace detail;

// A stream being captured: the graph and the nodes its next work comes after.
struct stream_capture {
  cudaGraph_t graph = nullptr;
  cudaStream_t origin = nullptr;
  std::vector<cudaGraphNode_t> tail;
};
std::mutex capture_mutex;
std::map<cudaStream_t, stream_capture>& captures() {
  static std::map<cudaStream_t, stream_capture> by_stream;
  return by_stream;
}
// Events recorded during a capture: the nodes they stand for.
std::map<cudaEvent_t, stream_capture>& captured_events() {
  static std::map<cudaEvent_t, stream_capture> by_event;
  return by_event;
}

void end_capture_of(cudaGraph_t graph) {
  auto& by_stream = captures();
  for (auto it = by_stream.begin(); it != by_stream.end();) it = it->second.graph == graph ? by_stream.erase(it) : ++it;
  auto& by_event = captured_events();
  for (auto it = by_event.begin(); it != by_event.end();) it = it->second.graph == graph ? by_event.erase(it) : ++it;
}

}  // namespace

bool stream_is_capturing(cudaStream_t stream) {
  std::lock_guard lock(capture_mutex);
  return captures().count(stream) != 0;
}

cudaError_t capture_operation(cudaStream_t stream, cudaGraphNodeType type, std::function<cudaError_t()> run) {
  std::lock_guard lock(capture_mutex);
  stream_capture& c = captures().at(stream);
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  node->dependencies = c.tail;
  node->run = std::move(run);
  c.tail = {node.get()};
  c.graph->nodes.push_back(std::move(node));
  return cudaSuccess;
}

cudaError_t capture_kernel(cudaStream_t stream, const void* kernel, const launch_request& request, kernel_call call) {
  std::lock_guard lock(capture_mutex);
  stream_capture& c = captures().at(stream);
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = cudaGraphNodeTypeKernel;
  node->dependencies = c.tail;
  node->kernel.func = const_cast<void*>(kernel);
  node->kernel.gridDim = request.grid;
  node->kernel.blockDim = request.block;
  node->kernel.sharedMemBytes = static_cast<unsigned>(request.shared_bytes);
  node->request = request;
  node->call = std::move(call);
  c.tail = {node.get()};
  c.graph->nodes.push_back(std::move(node));
  return cudaSuccess;
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream) {
  if (captures_in_progress.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lock(capture_mutex);
  const auto it = captures().find(stream);
  if (it == captures().end()) return false;
  captured_events()[event] = it->second;
  return true;
}

bool capture_event_wait(cudaStream_t stream, cudaEvent_t event) {
  if (captures_in_progress.load(std::memory_order_relaxed) == 0) return false;
  std::lock_guard lock(capture_mutex);
  const auto recorded = captured_events().find(event);
  if (recorded == captured_events().end()) return false;
  auto [it, joined] = captures().try_emplace(stream, recorded->second);
  if (!joined) {
    for (cudaGraphNode_t n : recorded->second.tail)
      if (std::find(it->second.tail.begin(), it->second.tail.end(), n) == it->second.tail.end())
        it->second.tail.push_back(n);
  }
  return true;
}

}  // namespace cohort::compat

using namespace cohort::compat;
using namespace cohort::compat::detail;

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  if (const cudaError_t e = sticky()) return e;
  if (!valid_stream(stream)) return bad_stream("cudaStreamBeginCapture", stream);
  if (stream == nullptr || stream == cudaStreamLegacy)
    return fail(cudaErrorStreamCaptureUnsupported,
                "cudaStreamBeginCapture: the legacy default stream cannot be captured: capture a stream made by "
                "cudaStreamCreate");
  if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
      mode != cudaStreamCaptureModeRelaxed)
    return fail(cudaErrorInvalidValue, "cudaStreamBeginCapture: an unknown capture mode");
  std::lock_guard lock(capture_mutex);
  if (captures().count(stream) != 0)
    return fail(cudaErrorIllegalState, "cudaStreamBeginCapture: stream " + address(stream) + " is already capturing");
  captures()[stream] = {new_graph(), stream, {}};
  captures_in_progress.fetch_add(1);
  return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  if (pGraph == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamEndCapture: a null graph pointer");
  std::lock_guard lock(capture_mutex);
  const auto it = captures().find(stream);
  if (it == captures().end())
    return fail(cudaErrorIllegalState, "cudaStreamEndCapture: stream " + address(stream) + " is not capturing");
  if (it->second.origin != stream)
    return fail(cudaErrorStreamCaptureUnmatched, "cudaStreamEndCapture: stream " + address(stream) +
                                                     " joined a capture begun on stream " + address(it->second.origin) +
                                                     ": end it there");
  *pGraph = it->second.graph;
  end_capture_of(*pGraph);
  captures_in_progress.fetch_sub(1);
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  if (pCaptureStatus == nullptr) return fail(cudaErrorInvalidValue, "cudaStreamIsCapturing: a null status pointer");
  if (!valid_stream(stream)) return bad_stream("cudaStreamIsCapturing", stream);
  *pCaptureStatus = capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (mode == nullptr) return fail(cudaErrorInvalidValue, "cudaThreadExchangeStreamCaptureMode: a null mode");
  thread_local cudaStreamCaptureMode current = cudaStreamCaptureModeGlobal;
  std::swap(current, *mode);
  return cudaSuccess;
}
