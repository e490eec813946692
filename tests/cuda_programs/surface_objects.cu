// Surface objects over 1-D, 2-D and 3-D CUDA arrays, as image-processing and
// simulation codes use them: kernels writing with surf2Dwrite and reading with
// surf2Dread (x in bytes), the value form and the out-parameter form, elements
// of 1 to 16 bytes, the zero and clamp boundary modes, the same array read
// back by cudaMemcpy2DFromArray, cudaMemcpy3D and a texture object; and
// cudaCreateSurfaceObject's refusals, and the trap mode's failure. Each result is checked against
// the host.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    cudaError_t err_ = (call);                                                            \
    if (err_ != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

static int errors = 0;
static void expect(bool ok, const char* what, int i, double got, double want) {
  if (!ok && errors++ < 12) std::printf("%s [%d]: got %g, expected %g\n", what, i, got, want);
}

static float field(int x, int y) { return (float)(x * 3 - y * 5) + 0.25f * (float)((x * 7 + y) % 4); }

__global__ void fill_field(cudaSurfaceObject_t s, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) surf2Dwrite((float)(x * 3 - y * 5) + 0.25f * (float)((x * 7 + y) % 4), s, x * sizeof(float), y);
}

// A 3x3 box blur from one surface into another, the edges clamped by the surface.
__global__ void blur(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float sum = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) sum += surf2Dread<float>(in, (x + dx) * (int)sizeof(float), y + dy, cudaBoundaryModeClamp);
  surf2Dwrite(sum / 9.0f, out, x * sizeof(float), y);
}

// Reads outside the array in the zero mode, and writes there that must be dropped.
__global__ void outside_zero(cudaSurfaceObject_t s, float* got, int w, int h) {
  const int i = threadIdx.x;  // 4 threads: left, right, above, below
  const int xs[4] = {-1, w, 0, 0}, ys[4] = {0, 0, -1, h};
  surf2Dread(&got[i], s, xs[i] * (int)sizeof(float), ys[i], cudaBoundaryModeZero);
  surf2Dwrite(-1000.0f, s, xs[i] * (int)sizeof(float), ys[i], cudaBoundaryModeZero);
}

__global__ void swizzle_uchar4(cudaSurfaceObject_t s, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w || y >= h) return;
  uchar4 p;
  surf2Dread(&p, s, x * 4, y);
  surf2Dwrite(make_uchar4(p.w, p.z, p.y, (unsigned char)(p.x + 1)), s, x * 4, y);
}

__global__ void fill_1d_short2(cudaSurfaceObject_t s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) surf1Dwrite(make_short2((short)(i - 50), (short)(i * i % 3001)), s, i * (int)sizeof(short2));
}
__global__ void read_1d_short2(cudaSurfaceObject_t s, int2* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const short2 v = surf1Dread<short2>(s, i * (int)sizeof(short2));
    out[i] = make_int2(v.x, v.y);
  }
}

__global__ void fill_3d_float4(cudaSurfaceObject_t s, int w, int h, int d) {
  const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) surf3Dwrite(make_float4(x, y, z, x + 10 * y + 100 * z), s, x * (int)sizeof(float4), y, z);
}
__global__ void sum_3d_float4(cudaSurfaceObject_t s, float* out, int w, int h, int d) {
  const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) {
    float4 v;
    surf3Dread(&v, s, x * (int)sizeof(float4), y, z);
    out[(z * h + y) * w + x] = v.x + v.y + v.z + v.w;
  }
}

__global__ void write_past_the_row(cudaSurfaceObject_t s, int w) { surf2Dwrite(1.0f, s, w * (int)sizeof(float), 0); }

__global__ void fetch_points(cudaTextureObject_t t, float* out, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

static cudaSurfaceObject_t surface_of(cudaArray_t a) {
  cudaResourceDesc r;
  std::memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  CHECK(cudaCreateSurfaceObject(&s, &r));
  return s;
}

int main() {
  // 1. A 2-D float field written by a kernel, blurred into a second array, read three ways.
  {
    const int w = 37, h = 19;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    CHECK(cudaMallocArray(&a, &desc, w, h, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocArray(&b, &desc, w, h, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t sa = surface_of(a), sb = surface_of(b);
    const dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    fill_field<<<grid, block>>>(sa, w, h);
    blur<<<grid, block>>>(sa, sb, w, h);
    CHECK(cudaGetLastError());
    std::vector<float> got(w * h), blurred(w * h);
    CHECK(cudaMemcpy2DFromArray(got.data(), w * sizeof(float), a, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy2DFromArray(blurred.data(), w * sizeof(float), b, 0, 0, w * sizeof(float), h,
                                cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        expect(got[y * w + x] == field(x, y), "surf2Dwrite", y * w + x, got[y * w + x], field(x, y));
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int cx = x + dx < 0 ? 0 : (x + dx >= w ? w - 1 : x + dx);
            const int cy = y + dy < 0 ? 0 : (y + dy >= h ? h - 1 : y + dy);
            sum += field(cx, cy);
          }
        const float want = sum / 9.0f, diff = blurred[y * w + x] - want;
        expect(diff < 1e-4f && diff > -1e-4f, "clamped blur", y * w + x, blurred[y * w + x], want);
      }
    // The same array through a texture object.
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    float* fetched;
    CHECK(cudaMallocManaged(&fetched, w * h * sizeof(float)));
    fetch_points<<<grid, block>>>(t, fetched, w, h);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < w * h; ++i) expect(fetched[i] == got[i], "tex2D of the surface's array", i, fetched[i], got[i]);
    // Outside the array, zero mode: reads give 0, writes are dropped.
    float* outside;
    CHECK(cudaMallocManaged(&outside, 4 * sizeof(float)));
    for (int i = 0; i < 4; ++i) outside[i] = 123.0f;
    outside_zero<<<1, 4>>>(sa, outside, w, h);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 4; ++i) expect(outside[i] == 0.0f, "zero-mode read outside", i, outside[i], 0.0);
    std::vector<float> after(w * h);
    CHECK(cudaMemcpy2DFromArray(after.data(), w * sizeof(float), a, 0, 0, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; ++i) expect(after[i] == got[i], "zero-mode write outside dropped", i, after[i], got[i]);
    cudaResourceDesc back;
    CHECK(cudaGetSurfaceObjectResourceDesc(&back, sa));
    expect(back.resType == cudaResourceTypeArray && back.res.array.array == a, "resource desc", 0, 0, 0);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaDestroySurfaceObject(sa));
    CHECK(cudaDestroySurfaceObject(sb));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(b));
    CHECK(cudaFree(fetched));
    CHECK(cudaFree(outside));
  }
  // 2. uchar4 pixels read and written in place, copied in and out.
  {
    const int w = 53, h = 11;
    std::vector<uchar4> img(w * h), out(w * h);
    for (int i = 0; i < w * h; ++i)
      img[i] = make_uchar4((unsigned char)(i * 3), (unsigned char)(i * 5), (unsigned char)(i * 7), (unsigned char)i);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, w, h, cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, img.data(), w * sizeof(uchar4), w * sizeof(uchar4), h, cudaMemcpyHostToDevice));
    cudaSurfaceObject_t s = surface_of(a);
    swizzle_uchar4<<<dim3((w + 31) / 32, h), 32>>>(s, w, h);
    CHECK(cudaMemcpy2DFromArray(out.data(), w * sizeof(uchar4), a, 0, 0, w * sizeof(uchar4), h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < w * h; ++i) {
      const uchar4 p = img[i], q = out[i];
      const bool ok = q.x == p.w && q.y == p.z && q.z == p.y && q.w == (unsigned char)(p.x + 1);
      expect(ok, "uchar4 swizzle", i, q.x, p.w);
    }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
  }
  // 3. A 1-D array of short2, value-form reads.
  {
    const int n = 300;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<short2>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, n, 0, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s = surface_of(a);
    int2* got;
    CHECK(cudaMallocManaged(&got, n * sizeof(int2)));
    fill_1d_short2<<<(n + 63) / 64, 64>>>(s, n);
    read_1d_short2<<<(n + 63) / 64, 64>>>(s, got, n);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i)
      expect(got[i].x == i - 50 && got[i].y == i * i % 3001, "surf1D short2", i, got[i].y, i * i % 3001);
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(got));
  }
  // 4. A 3-D array of float4, read by a kernel and by cudaMemcpy3D.
  {
    const int w = 9, h = 5, d = 3;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float4>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &desc, make_cudaExtent(w, h, d), cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s = surface_of(a);
    float* sums;
    CHECK(cudaMallocManaged(&sums, w * h * d * sizeof(float)));
    fill_3d_float4<<<dim3(h, d), w>>>(s, w, h, d);
    sum_3d_float4<<<dim3(h, d), w>>>(s, sums, w, h, d);
    CHECK(cudaDeviceSynchronize());
    std::vector<float4> copied(w * h * d);
    cudaMemcpy3DParms p;
    std::memset(&p, 0, sizeof p);
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(copied.data(), w * sizeof(float4), w, h);
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    for (int z = 0; z < d; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const int i = (z * h + y) * w + x;
          const float want = (float)(x + y + z + x + 10 * y + 100 * z);
          expect(sums[i] == want, "surf3D float4 sum", i, sums[i], want);
          expect(copied[i].w == (float)(x + 10 * y + 100 * z), "cudaMemcpy3D of the surface's array", i, copied[i].w,
                 x + 10 * y + 100 * z);
        }
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(sums));
  }
  // 5. What cudaCreateSurfaceObject takes and refuses. An array without cudaArraySurfaceLoadStore
  //    is taken, as an H200's driver takes it (CUDA's guide asks for the flag), and kernels write
  //    through it; linear memory is refused.
  {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t plain;
    CHECK(cudaMallocArray(&plain, &desc, 16, 16));
    cudaResourceDesc r;
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = plain;
    cudaSurfaceObject_t s = 0;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    fill_field<<<dim3(2, 2), dim3(8, 8)>>>(s, 16, 16);
    CHECK(cudaGetLastError());
    float back[16 * 16];
    CHECK(cudaMemcpy2DFromArray(back, 16 * sizeof(float), plain, 0, 0, 16 * sizeof(float), 16, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x) {
        const float want = (float)(x * 3 - y * 5) + 0.25f * (float)((x * 7 + y) % 4);
        expect(back[y * 16 + x] == want, "a surface over an array without the flag", y * 16 + x, back[y * 16 + x], want);
      }
    CHECK(cudaDestroySurfaceObject(s));
    float* linear;
    CHECK(cudaMalloc(&linear, 256 * sizeof(float)));
    std::memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = linear;
    r.res.linear.desc = desc;
    r.res.linear.sizeInBytes = 256 * sizeof(float);
    const cudaError_t not_array = cudaCreateSurfaceObject(&s, &r);
    expect(not_array != cudaSuccess, "linear memory refused", 0, not_array, 1);
    cudaGetLastError();
#ifndef __NVCC__
    // The host backend's code (a GPU's code is not asserted here).
    expect(not_array == cudaErrorInvalidValue, "refusal code", 0, not_array, cudaErrorInvalidValue);
#endif
    CHECK(cudaFreeArray(plain));
    CHECK(cudaFree(linear));
  }
  // 6. The trap mode (the default): an access outside the array fails the kernel with
  //    cudaErrorIllegalAddress, as on an H200. The error is sticky, so this comes last.
  {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &desc, 8, 2, cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t s = surface_of(a);
    write_past_the_row<<<1, 1>>>(s, 8);
    const cudaError_t trapped = cudaDeviceSynchronize();
    std::printf("a surface write past its row: %s\n", cudaGetErrorName(trapped));
    expect(trapped == cudaErrorIllegalAddress, "the trapped write's code", 0, trapped, cudaErrorIllegalAddress);
    CHECK(cudaDeviceReset());  // the context's end frees the array the fault left (cudaFreeArray would return it)
  }
  if (errors) {
    std::printf("FAILED: %d mismatches\n", errors);
    return 1;
  }
  std::printf("surface_objects: all checks passed\n");
  return 0;
}
