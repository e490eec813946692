// A surface access outside its array in cudaBoundaryModeTrap (the default)
// fails the kernel, as on a GPU: a sticky cudaErrorIllegalAddress whose
// message names the call, the coordinates and the array's extent.
#include <string>

#include "runtime_test_support.hpp"

namespace {

class SurfaceTrap : public FreshDevice {
 protected:
  cudaArray_t array = nullptr;
  cudaSurfaceObject_t surface = 0;

  void make(int width, int height) {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    ASSERT_EQ(cudaMallocArray(&array, &desc, width, height, cudaArraySurfaceLoadStore), cudaSuccess);
    cudaResourceDesc r{};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = array;
    ASSERT_EQ(cudaCreateSurfaceObject(&surface, &r), cudaSuccess);
  }
};

// The common mistake: x as an element index where the surface wants bytes.
__global__ void writes_by_element_index(cudaSurfaceObject_t s, int width) {
  const int x = threadIdx.x;
  if (x < width) surf2Dwrite(1.0f, s, x, blockIdx.x);               // in range while x * 4 < width * 4
  if (x == width - 1) surf2Dwrite(2.0f, s, x * 4 + 4, blockIdx.x);  // one element past the row
}

__global__ void reads_below_the_array(cudaSurfaceObject_t s, float* out) { *out = surf2Dread<float>(s, 0, 3); }

__global__ void reads_1d_before_the_start(cudaSurfaceObject_t s, float* out) { surf1Dread(out, s, -4); }

std::string fault_text(cudaError_t code) {
  EXPECT_EQ(cudaDeviceSynchronize(), code);
  return detail_of(code);
}

TEST_F(SurfaceTrap, AWritePastTheRowFailsTheKernelNamingCoordinatesAndExtent) {
  make(8, 3);
  testing::internal::CaptureStderr();
  writes_by_element_index<<<1, 8>>>(surface, 8);
  const std::string message = fault_text(cudaErrorIllegalAddress);
  testing::internal::GetCapturedStderr();
  EXPECT_NE(message.find("surf2Dwrite: 4 bytes at x = 32, y = 0 lie outside the surface's array of 32 bytes x 3 "
                         "rows in cudaBoundaryModeTrap, the default (x counts bytes, not elements: an element's "
                         "index times its size; cudaBoundaryModeZero or cudaBoundaryModeClamp read zero or the "
                         "nearest element instead) at "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("surface_trap_test.cu:29:"), std::string::npos) << message;  // the write's line
  EXPECT_NE(message.find("writes_by_element_index(unsigned long long, int)`, block (0,0,0), thread (7,0,0)"),
            std::string::npos)
      << message;
  float* more = nullptr;
  EXPECT_EQ(cudaMalloc(&more, 4), cudaErrorIllegalAddress);  // sticky, as a fault is
}

TEST_F(SurfaceTrap, AReadBelowTheLastRowFails) {
  make(5, 3);
  float* out = nullptr;
  ASSERT_EQ(cudaMallocManaged(&out, sizeof(float)), cudaSuccess);
  testing::internal::CaptureStderr();
  reads_below_the_array<<<1, 1>>>(surface, out);
  const std::string message = fault_text(cudaErrorIllegalAddress);
  testing::internal::GetCapturedStderr();
  EXPECT_NE(message.find("surf2Dread: 4 bytes at x = 0, y = 3 lie outside the surface's array of 20 bytes x 3 rows"),
            std::string::npos)
      << message;
}

TEST_F(SurfaceTrap, A1DReadBeforeTheStartFails) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  ASSERT_EQ(cudaMallocArray(&array, &desc, 10, 0, cudaArraySurfaceLoadStore), cudaSuccess);
  cudaResourceDesc r{};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = array;
  ASSERT_EQ(cudaCreateSurfaceObject(&surface, &r), cudaSuccess);
  float* out = nullptr;
  ASSERT_EQ(cudaMallocManaged(&out, sizeof(float)), cudaSuccess);
  testing::internal::CaptureStderr();
  reads_1d_before_the_start<<<1, 1>>>(surface, out);
  const std::string message = fault_text(cudaErrorIllegalAddress);
  testing::internal::GetCapturedStderr();
  EXPECT_NE(message.find("surf1Dread: 4 bytes at x = -4 lie outside the surface's array of 40 bytes in "),
            std::string::npos)
      << message;
}

TEST_F(SurfaceTrap, CreationRefusalsSayWhatToDo) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  ASSERT_EQ(cudaMallocArray(&array, &desc, 4, 4, cudaArraySurfaceLoadStore), cudaSuccess);
  cudaResourceDesc r{};
  r.res.array.array = array;
  r.resType = cudaResourceTypePitch2D;
  EXPECT_EQ(cudaCreateSurfaceObject(&surface, &r), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaCreateSurfaceObject: a surface reads and writes a CUDA array: the resource's resType must be "
            "cudaResourceTypeArray");
  EXPECT_EQ(cudaDestroySurfaceObject(12345), cudaErrorInvalidValue);
  EXPECT_EQ(detail_of(cudaErrorInvalidValue),
            "cudaDestroySurfaceObject: 12345 is not a surface object made by cudaCreateSurfaceObject, or was "
            "destroyed");
}

// A reset ends the context with its arrays, as CUDA's does: a later cudaFreeArray is refused.
TEST_F(SurfaceTrap, AResetFreesTheDevicesArrays) {
  make(4, 4);
  ASSERT_EQ(cudaDeviceReset(), cudaSuccess);
  EXPECT_EQ(cudaFreeArray(array), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(detail_of(cudaErrorInvalidResourceHandle),
            "cudaFreeArray: the array " + address_text(array) +
                " was not made by cudaMallocArray or cudaMalloc3DArray, or was freed");
}

}  // namespace
