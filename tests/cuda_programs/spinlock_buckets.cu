// Mutual exclusion with spin locks built from atomicCAS/atomicExch, as textbooks
// and hash-table codes write them: one global lock taken by thread 0 of each
// block to add the block's partial sum to a double, and one lock per bucket of
// a chained hash table, taken by any thread in the "try, work, release, done"
// loop that never spins while holding a lock; __threadfence() after each acquire
// and before each release.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N_KEYS 8192
#define BUCKETS 97
#define THREADS 128

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
  printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

struct Entry { unsigned key; int next; };

__device__ int g_mutex = 0;

__device__ void lock(int* mutex) {
  while (atomicCAS(mutex, 0, 1) != 0) { }
  __threadfence();  // acquire: see what the previous holder wrote
}
__device__ void unlock(int* mutex) { __threadfence(); atomicExch(mutex, 0); }

__global__ void sum_with_lock(const unsigned* keys, int n, double* total) {
  __shared__ double cache[THREADS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cache[threadIdx.x] = i < n ? sqrt((double)keys[i]) : 0.0;
  __syncthreads();
  for (int s = THREADS / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    lock(&g_mutex);
    *total += cache[0];
    unlock(&g_mutex);
  }
}

__global__ void insert_chained(const unsigned* keys, int n, Entry* entries, int* heads, int* locks, unsigned long long* bucket_sum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned key = keys[i];
  int b = key % BUCKETS;
  entries[i].key = key;
  bool done = false;
  while (!done) {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence();
      entries[i].next = heads[b];
      heads[b] = i;
      bucket_sum[b] += key;  // a plain read-modify-write, safe under the lock
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    }
  }
}

int main() {
  unsigned* h_keys = (unsigned*)malloc(N_KEYS * sizeof(unsigned));
  srand(4711);
  for (int i = 0; i < N_KEYS; i++) h_keys[i] = (unsigned)(rand() % 100000);
  unsigned* d_keys;
  Entry* d_entries;
  int *d_heads, *d_locks;
  unsigned long long* d_bucket_sum;
  double* d_total;
  CHECK(cudaMalloc((void**)&d_keys, N_KEYS * sizeof(unsigned)));
  CHECK(cudaMalloc((void**)&d_entries, N_KEYS * sizeof(Entry)));
  CHECK(cudaMalloc((void**)&d_heads, BUCKETS * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_locks, BUCKETS * sizeof(int)));
  CHECK(cudaMalloc((void**)&d_bucket_sum, BUCKETS * sizeof(unsigned long long)));
  CHECK(cudaMalloc((void**)&d_total, sizeof(double)));
  CHECK(cudaMemcpy(d_keys, h_keys, N_KEYS * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_heads, 0xff, BUCKETS * sizeof(int)));  // -1: empty
  CHECK(cudaMemset(d_locks, 0, BUCKETS * sizeof(int)));
  CHECK(cudaMemset(d_bucket_sum, 0, BUCKETS * sizeof(unsigned long long)));
  CHECK(cudaMemset(d_total, 0, sizeof(double)));
  int blocks = (N_KEYS + THREADS - 1) / THREADS;
  sum_with_lock<<<blocks, THREADS>>>(d_keys, N_KEYS, d_total);
  insert_chained<<<blocks, THREADS>>>(d_keys, N_KEYS, d_entries, d_heads, d_locks, d_bucket_sum);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double total;
  int heads[BUCKETS];
  unsigned long long bucket_sum[BUCKETS];
  Entry* entries = (Entry*)malloc(N_KEYS * sizeof(Entry));
  CHECK(cudaMemcpy(&total, d_total, sizeof total, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(heads, d_heads, sizeof heads, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bucket_sum, d_bucket_sum, sizeof bucket_sum, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(entries, d_entries, N_KEYS * sizeof(Entry), cudaMemcpyDeviceToHost));

  int errors = 0, seen = 0;
  double ref_total = 0;
  for (int i = 0; i < N_KEYS; i++) ref_total += sqrt((double)h_keys[i]);
  if (fabs(total - ref_total) > 1e-9 * ref_total) { printf("total %f, expected %f\n", total, ref_total); errors++; }
  for (int b = 0; b < BUCKETS; b++) {
    unsigned long long chain_sum = 0, ref_sum = 0;
    int count = 0, ref_count = 0;
    for (int e = heads[b]; e >= 0 && count <= N_KEYS; e = entries[e].next, count++) {
      chain_sum += entries[e].key;
      if (entries[e].key % BUCKETS != (unsigned)b) errors++;
    }
    for (int i = 0; i < N_KEYS; i++)
      if (h_keys[i] % BUCKETS == (unsigned)b) { ref_sum += h_keys[i]; ref_count++; }
    seen += count;
    if ((count != ref_count || chain_sum != ref_sum || bucket_sum[b] != ref_sum) && errors++ < 10)
      printf("bucket %d: %d keys summing to %llu (%llu under the lock), expected %d, %llu\n", b, count, chain_sum, bucket_sum[b], ref_count, ref_sum);
  }
  if (seen != N_KEYS) errors++;
  cudaFree(d_keys); cudaFree(d_entries); cudaFree(d_heads); cudaFree(d_locks); cudaFree(d_bucket_sum); cudaFree(d_total);
  free(h_keys); free(entries);
  if (errors) { printf("Test failed\n"); return 1; }
  printf("Test passed\n");
  return 0;
}
