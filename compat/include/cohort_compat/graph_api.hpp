// CUDA graphs on the host backend: stream capture and the explicit node API,
// with CUDA 12's types, enumerator values and signatures (and the older
// cudaGraphInstantiate and cudaGraphExecUpdate forms CUDA 12's
// <cuda_runtime.h> keeps as inline overloads). A graph runs on the host as
// its nodes' sequence: src/compat/graphs.cpp.
#pragma once

#include <cstddef>

#include "../driver_types.h"
#include "memory_3d_types.hpp"

struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
typedef struct CUgraph_st* cudaGraph_t;
typedef struct CUgraphNode_st* cudaGraphNode_t;
typedef struct CUgraphExec_st* cudaGraphExec_t;

enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2,
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};
enum cudaGraphNodeType {
  cudaGraphNodeTypeKernel = 0x00,
  cudaGraphNodeTypeMemcpy = 0x01,
  cudaGraphNodeTypeMemset = 0x02,
  cudaGraphNodeTypeHost = 0x03,
  cudaGraphNodeTypeGraph = 0x04,
  cudaGraphNodeTypeEmpty = 0x05,
  cudaGraphNodeTypeWaitEvent = 0x06,
  cudaGraphNodeTypeEventRecord = 0x07,
};
enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8,
};
struct cudaGraphExecUpdateResultInfo {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
};

#define cudaGraphInstantiateFlagAutoFreeOnLaunch 1
#define cudaGraphInstantiateFlagUpload 2
#define cudaGraphInstantiateFlagDeviceLaunch 4
#define cudaGraphInstantiateFlagUseNodePriority 8

struct cudaKernelNodeParams {
  void* func;
  dim3 gridDim;
  dim3 blockDim;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
};
struct cudaMemsetParams {
  void* dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
};
struct cudaHostNodeParams {
  cudaHostFn_t fn;
  void* userData;
};

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus);
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode);

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes);
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes, size_t* pNumRootNodes);
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaKernelNodeParams* pNodeParams);
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* pNodeParams);
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* pNodeParams);
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemcpy3DParms* pCopyParams);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                     const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   size_t numDependencies, const cudaMemsetParams* pMemsetParams);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 size_t numDependencies, const cudaHostNodeParams* pNodeParams);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                  size_t numDependencies);

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* pNodeParams);
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo);
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec);

// CUDA 11's forms, which CUDA 12's <cuda_runtime.h> keeps.
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, cudaGraphNode_t* pErrorNode,
                                        char* pLogBuffer, size_t bufferSize) {
  (void)pErrorNode;
  if (pLogBuffer != nullptr && bufferSize > 0) pLogBuffer[0] = '\0';
  return cudaGraphInstantiate(pGraphExec, graph, 0ull);
}
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphNode_t* hErrorNode_out,
                                       cudaGraphExecUpdateResult* updateResult_out) {
  cudaGraphExecUpdateResultInfo info{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  const cudaError_t e = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
  if (hErrorNode_out != nullptr) *hErrorNode_out = info.errorNode;
  if (updateResult_out != nullptr) *updateResult_out = info.result;
  return e;
}
