// A device query in the style of the toolkit's utility and of the many programs
// that print their device before they start: every device's cudaDeviceProp,
// printed (texture and surface limits included), cross-checked against
// cudaDeviceGetAttribute and against the limits themselves, and the warp size a
// kernel sees compared with the one the properties report.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  printf("%s:%d: %s returned %d (%s)\n", __FILE__, __LINE__, #call, (int)e, cudaGetErrorString(e)); exit(EXIT_FAILURE); } } while (0)

__global__ void read_warp_size(int* out) { *out = warpSize; }

static int errors = 0;
#define EXPECT(cond) do { if (!(cond)) { printf("  check failed: %s\n", #cond); errors++; } } while (0)

int main() {
  int deviceCount = 0, driverVersion = 0, runtimeVersion = 0;
  CHECK(cudaGetDeviceCount(&deviceCount));
  CHECK(cudaDriverGetVersion(&driverVersion));
  CHECK(cudaRuntimeGetVersion(&runtimeVersion));
  printf("Detected %d CUDA capable device(s); driver %d.%d, runtime %d.%d\n", deviceCount, driverVersion / 1000,
         (driverVersion % 100) / 10, runtimeVersion / 1000, (runtimeVersion % 100) / 10);
  EXPECT(deviceCount >= 1);
  for (int dev = 0; dev < deviceCount; ++dev) {
    CHECK(cudaSetDevice(dev));
    cudaDeviceProp deviceProp;
    CHECK(cudaGetDeviceProperties(&deviceProp, dev));
    printf("\nDevice %d: \"%s\"\n", dev, deviceProp.name);
    printf("  CUDA Capability Major/Minor version number:    %d.%d\n", deviceProp.major, deviceProp.minor);
    printf("  Total amount of global memory:                 %.0f MBytes\n", (float)deviceProp.totalGlobalMem / 1048576.0f);
    printf("  (%03d) Multiprocessors, max %d threads and %d blocks each\n", deviceProp.multiProcessorCount,
           deviceProp.maxThreadsPerMultiProcessor, deviceProp.maxBlocksPerMultiProcessor);
    printf("  L2 Cache Size:                                 %d bytes\n", deviceProp.l2CacheSize);
    printf("  Max Texture Dimension Size (x,y,z)             1D=(%d), 2D=(%d, %d), 3D=(%d, %d, %d)\n",
           deviceProp.maxTexture1D, deviceProp.maxTexture2D[0], deviceProp.maxTexture2D[1], deviceProp.maxTexture3D[0],
           deviceProp.maxTexture3D[1], deviceProp.maxTexture3D[2]);
    printf("  Max Layered 2D Texture Size, (num) layers      2D=(%d, %d), %d layers\n", deviceProp.maxTexture2DLayered[0],
           deviceProp.maxTexture2DLayered[1], deviceProp.maxTexture2DLayered[2]);
    printf("  Total amount of constant memory:               %zu bytes\n", deviceProp.totalConstMem);
    printf("  Total amount of shared memory per block:       %zu bytes (opt-in %zu)\n", deviceProp.sharedMemPerBlock,
           deviceProp.sharedMemPerBlockOptin);
    printf("  Total shared memory per multiprocessor:        %zu bytes\n", deviceProp.sharedMemPerMultiprocessor);
    printf("  Total number of registers available per block: %d\n", deviceProp.regsPerBlock);
    printf("  Warp size:                                     %d\n", deviceProp.warpSize);
    printf("  Maximum number of threads per block:           %d\n", deviceProp.maxThreadsPerBlock);
    printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", deviceProp.maxThreadsDim[0],
           deviceProp.maxThreadsDim[1], deviceProp.maxThreadsDim[2]);
    printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", deviceProp.maxGridSize[0],
           deviceProp.maxGridSize[1], deviceProp.maxGridSize[2]);
    printf("  Maximum memory pitch:                          %zu bytes\n", deviceProp.memPitch);
    printf("  Texture alignment:                             %zu bytes\n", deviceProp.textureAlignment);
    printf("  Surface alignment:                             %zu bytes\n", deviceProp.surfaceAlignment);
    printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
           (deviceProp.asyncEngineCount ? "Yes" : "No"), deviceProp.asyncEngineCount);
    printf("  Integrated GPU sharing Host Memory:            %s\n", deviceProp.integrated ? "Yes" : "No");
    printf("  Support host page-locked memory mapping:       %s\n", deviceProp.canMapHostMemory ? "Yes" : "No");
    printf("  Device supports Unified Addressing (UVA):      %s\n", deviceProp.unifiedAddressing ? "Yes" : "No");
    printf("  Device supports Managed Memory:                %s\n", deviceProp.managedMemory ? "Yes" : "No");
    printf("  Supports Cooperative Kernel Launch:            %s\n", deviceProp.cooperativeLaunch ? "Yes" : "No");
    printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n", deviceProp.pciDomainID, deviceProp.pciBusID,
           deviceProp.pciDeviceID);

    int value = 0;
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, dev));
    EXPECT(value == deviceProp.warpSize);
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, dev));
    EXPECT(value == deviceProp.maxThreadsPerBlock);
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, dev));
    EXPECT(value == deviceProp.multiProcessorCount);
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrComputeCapabilityMajor, dev));
    EXPECT(value == deviceProp.major);
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    EXPECT((size_t)value == deviceProp.sharedMemPerBlockOptin);
    CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrMaxGridDimX, dev));
    EXPECT(value == deviceProp.maxGridSize[0]);
    EXPECT(deviceProp.warpSize == 32);
    EXPECT(deviceProp.maxThreadsDim[0] == deviceProp.maxThreadsPerBlock);
    EXPECT(deviceProp.sharedMemPerBlock <= deviceProp.sharedMemPerBlockOptin);
    EXPECT(deviceProp.sharedMemPerBlockOptin <= deviceProp.sharedMemPerMultiprocessor);
    EXPECT(deviceProp.maxThreadsPerMultiProcessor >= deviceProp.maxThreadsPerBlock);
    EXPECT(deviceProp.maxGridSize[0] == 0x7fffffff);
    EXPECT(deviceProp.totalGlobalMem > 0 && deviceProp.totalConstMem > 0);
    size_t free_mem = 0, total_mem = 0;
    CHECK(cudaMemGetInfo(&free_mem, &total_mem));
    EXPECT(free_mem <= total_mem && total_mem > 0);
    int* d_ws;
    int ws = 0;
    CHECK(cudaMalloc((void**)&d_ws, sizeof(int)));
    read_warp_size<<<1, 1>>>(d_ws);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&ws, d_ws, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_ws));
    EXPECT(ws == deviceProp.warpSize);
  }
  if (errors) { printf("Test failed: %d checks\n", errors); return 1; }
  printf("Test passed\n");
  return 0;
}
