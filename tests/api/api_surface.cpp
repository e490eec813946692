// Every public signature of cohort, named once: this file is compiled for the
// host backend by the normal build and by nvcc in tests/cuda, and never run.
// If the two backends' APIs drift apart (a function missing, a parameter or a
// return type that differs) one of the two builds stops here.
#include <cohort/cohort.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace cg = cohort;

namespace api_surface {

template <class A, class B>
inline constexpr bool same = std::is_same_v<A, B>;

struct pair_value {
  int a;
  float b;
};

// The members every group has, and the free functions over any group.
template <class Group>
__device__ void group_basics(const Group& g) {
  g.sync();
  cg::sync(g);
  static_assert(same<decltype(cg::thread_rank(g)), unsigned long long>);
  static_assert(same<decltype(cg::group_size(g)), unsigned long long>);
  (void)g.thread_rank();
  (void)g.num_threads();
  (void)g.size();
}

// Every group is a thread_group, as in NVIDIA's hierarchy: a reference binds to any.
__device__ void through_base(cg::thread_group& g, const cg::thread_group& c) {
  g.sync();
  c.sync(cg::call_site::current());
  static_assert(same<decltype(g.get_type()), cg::group_type>);
  static_assert(same<decltype(c.thread_rank()), unsigned long long>);
  static_assert(same<decltype(c.num_threads()), unsigned long long>);
  static_assert(same<decltype(c.size()), unsigned long long>);
  const unsigned type = g.get_type();
  (void)type;
}

// What every tile and coalesced group offers: shuffles of any trivially
// copyable value, votes, matches, and the collectives.
template <class Group>
__device__ void lane_operations(const Group& g, int* out) {
  int v = static_cast<int>(g.thread_rank());
  const pair_value p{v, 1.0f};
  v += g.shfl(v, 0);
  v += g.shfl(p, 0).a;
  v += g.shfl_up(v, 1);
  v += g.shfl_down(v, 1);
  v += g.shfl_xor(v, 1);
  static_assert(same<decltype(g.any(1)), int>);
  static_assert(same<decltype(g.all(1)), int>);
  v += g.any(v > 0) + g.all(v > 0);
  int all_alike = 0;
  auto voted = g.ballot(v > 0);
  static_assert(same<decltype(g.match_any(v)), decltype(voted)>);
  static_assert(same<decltype(g.match_all(v, all_alike)), decltype(voted)>);
  (void)g.meta_group_rank();
  (void)g.meta_group_size();
  out[0] = v;
}

// reduce, the scans, their *_update and *_store forms and invoke_one on one group.
template <class Group>
__device__ void collectives(const Group& g, int* data, int* out) {
  int v = static_cast<int>(g.thread_rank());
  cg::atomic_ref<int, cg::thread_scope_device> total(out[1]);
  static_assert(same<decltype(cg::reduce(g, v, cg::plus<int>())), int>);
  v += cg::reduce(g, v, cg::plus<int>()) + cg::reduce(g, v, cg::less<int>()) + cg::reduce(g, v, cg::greater<int>());
  v +=
      cg::reduce(g, v, cg::bit_and<int>()) + cg::reduce(g, v, cg::bit_or<int>()) + cg::reduce(g, v, cg::bit_xor<int>());
  cg::reduce_update_async(g, total, v, cg::plus<int>());
  cg::reduce_store_async(g, total, v, cg::plus<int>());
  cg::reduce_store_async(g, out + 2, v, cg::plus<int>());
  static_assert(same<decltype(cg::inclusive_scan(g, v)), int>);
  static_assert(same<decltype(cg::exclusive_scan(g, v, cg::plus<int>())), int>);
  v += cg::inclusive_scan(g, v) + cg::inclusive_scan(g, v, cg::plus<int>());
  v += cg::exclusive_scan(g, v) + cg::exclusive_scan(g, v, cg::plus<int>());
  v += cg::inclusive_scan_update(g, total, v) + cg::inclusive_scan_update(g, total, v, cg::plus<int>());
  v += cg::exclusive_scan_update(g, total, v) + cg::exclusive_scan_update(g, total, v, cg::plus<int>());
  static_assert(same<decltype(cg::invoke_one(g, [&] { out[3] = v; })), void>);
  cg::invoke_one(g, [&] { out[3] = v; });
  static_assert(same<decltype(cg::invoke_one_broadcast(g, [] { return 1; })), int>);
  static_assert(same<decltype(cg::invoke_one_broadcast(g, [] { return pair_value{1, 2.0f}; })), pair_value>);
  v += cg::invoke_one_broadcast(g, [&](int x) { return x + 1; }, v);

  // The trailing call_site is the same parameter on both backends.
  const cg::call_site here = cg::call_site::current();
  static_assert(same<decltype(cg::reduce_update_async(g, total, v, cg::plus<int>(), here)), void>);
  static_assert(same<decltype(cg::reduce_store_async(g, out + 2, v, cg::plus<int>(), here)), void>);
  v += cg::reduce(g, v, cg::plus<int>(), here);
  cg::reduce_update_async(g, total, v, cg::plus<int>(), here);
  cg::reduce_store_async(g, total, v, cg::plus<int>(), here);
  cg::reduce_store_async(g, out + 2, v, cg::plus<int>(), here);
  v += cg::inclusive_scan(g, v, here) + cg::inclusive_scan(g, v, cg::plus<int>(), here);
  v += cg::exclusive_scan(g, v, here) + cg::exclusive_scan(g, v, cg::plus<int>(), here);
  v += cg::inclusive_scan_update(g, total, v, here) + cg::inclusive_scan_update(g, total, v, cg::plus<int>(), here);
  v += cg::exclusive_scan_update(g, total, v, here) + cg::exclusive_scan_update(g, total, v, cg::plus<int>(), here);
  data[0] = v;
}

// The atomic types the *_update forms take: libcu++'s on CUDA, the host's own with its members.
__device__ void atomics(int* out) {
  cg::atomic_ref<int, cg::thread_scope_block> ref(out[0]);
  ref.store(1, cg::memory_order_relaxed);
  int expected = ref.load(cg::memory_order_acquire);
  (void)ref.compare_exchange_strong(expected, 2, cg::memory_order_acq_rel, cg::memory_order_relaxed);
  (void)ref.compare_exchange_weak(expected, 3);
  static_assert(same<decltype(ref.fetch_add(1)), int>);
  out[1] = ref.exchange(4) + ref.fetch_sub(1) + ref.fetch_and(7) + ref.fetch_or(1) + ref.fetch_xor(2) +
           ref.fetch_min(0) + ref.fetch_max(9, cg::memory_order_seq_cst);
  cg::atomic_ref<float> real(*reinterpret_cast<float*>(out + 2));
  out[3] = static_cast<int>(real.fetch_add(1.0f));
  static_assert(same<cg::atomic_ref<int>::value_type, int>);
  (void)cg::thread_scope_system;
  (void)cg::thread_scope_device;
  (void)cg::thread_scope_thread;
  (void)cg::memory_order_consume;
  (void)cg::memory_order_release;
}

// memcpy_async and its waits, on every group but the grid.
template <class Group>
__device__ void copies(const Group& g, int* data) {
  cg::memcpy_async(g, data, data + 64, sizeof(int) * 32);
  cg::memcpy_async(g, data, data + 64, cg::aligned_size_t<16>(sizeof(int) * 32));
  cg::memcpy_async(g, data, 32, data + 64, 16);
  cg::memcpy_async(g, data, cg::aligned_size_t<8>(32), data + 64, cg::aligned_size_t<8>(16));
  cg::memcpy_async(g, data, cg::aligned_size_t<8>(32), data + 64, std::size_t{16});
  const cg::call_site here = cg::call_site::current();
  cg::memcpy_async(g, data, data + 64, sizeof(int) * 32, here);
  cg::memcpy_async(g, data, 32, data + 64, 16, here);
  static_assert(same<decltype(cg::wait(g)), void>);
  cg::wait_prior<1>(g);
  cg::wait_prior<0>(g, here);
  cg::wait(g);
  cg::wait(g, here);
}

__global__ void kernel_side(int* data, int* out) {
  cg::thread_block block = cg::this_thread_block();
  static_assert(same<decltype(block.thread_rank()), unsigned>);
  static_assert(same<decltype(block.num_threads()), unsigned>);
  static_assert(same<decltype(block.group_index()), dim3>);
  static_assert(same<decltype(block.thread_index()), dim3>);
  static_assert(same<decltype(block.dim_threads()), dim3>);
  static_assert(same<decltype(block.group_dim()), dim3>);
  block.barrier_wait(block.barrier_arrive());
  static_assert(std::is_class_v<cg::thread_block::arrival_token>);
  static_assert(same<decltype(cg::thread_block::thread_scope), const cg::thread_scope>);
  group_basics(block);
  through_base(block, block);
  collectives(block, data, out);
  copies(block, data);
  static_assert(same<decltype(cg::dynamic_shared<int>()), int*>);
  cg::dynamic_shared<int>()[0] = 0;
  atomics(out);

  cg::grid_group grid = cg::this_grid();
  static_assert(same<decltype(grid.is_valid()), bool>);
  static_assert(same<decltype(grid.thread_rank()), unsigned long long>);
  static_assert(same<decltype(grid.block_rank()), unsigned long long>);
  static_assert(same<decltype(grid.cluster_rank()), unsigned long long>);
  static_assert(same<decltype(grid.num_blocks()), unsigned long long>);
  static_assert(same<decltype(grid.num_clusters()), unsigned long long>);
  static_assert(same<decltype(grid.dim_blocks()), dim3>);
  static_assert(same<decltype(grid.dim_clusters()), dim3>);
  static_assert(same<decltype(grid.block_index()), dim3>);
  static_assert(same<decltype(grid.cluster_index()), dim3>);
  static_assert(same<decltype(grid.group_dim()), dim3>);
  static_assert(same<decltype(grid.dim_threads()), dim3>);
  static_assert(same<decltype(grid.thread_index()), dim3>);
  static_assert(std::is_class_v<cg::grid_group::arrival_token>);
  static_assert(same<decltype(cg::grid_group::thread_scope), const cg::thread_scope>);
  grid.barrier_wait(grid.barrier_arrive());
  group_basics(grid);
  through_base(grid, grid);
  collectives(grid, data, out);

  cg::cluster_group cluster = cg::this_cluster();
  static_assert(same<decltype(cluster.block_rank()), unsigned>);
  static_assert(same<decltype(cluster.num_blocks()), unsigned>);
  static_assert(same<decltype(cluster.thread_rank()), unsigned>);
  static_assert(same<decltype(cluster.num_threads()), unsigned>);
  static_assert(same<decltype(cluster.block_index()), dim3>);
  static_assert(same<decltype(cluster.dim_blocks()), dim3>);
  static_assert(same<decltype(cluster.dim_threads()), dim3>);
  static_assert(same<decltype(cluster.map_shared_rank(data, 0)), int*>);
  static_assert(same<decltype(cluster.query_shared_rank(data)), unsigned>);
  static_assert(std::is_class_v<cg::cluster_group::arrival_token>);
  cluster.barrier_wait(cluster.barrier_arrive());
  group_basics(cluster);
  through_base(cluster, cluster);
  collectives(cluster, data, out);

  cg::multi_grid_group multi_grid = cg::this_multi_grid();
  static_assert(same<decltype(multi_grid.is_valid()), bool>);
  static_assert(same<decltype(multi_grid.thread_rank()), unsigned long long>);
  static_assert(same<decltype(multi_grid.num_threads()), unsigned long long>);
  static_assert(same<decltype(multi_grid.grid_rank()), unsigned>);
  static_assert(same<decltype(multi_grid.num_grids()), unsigned>);
  static_assert(same<decltype(cg::multi_grid_group::thread_scope), const cg::thread_scope>);
  group_basics(multi_grid);
  through_base(multi_grid, multi_grid);
  collectives(multi_grid, data, out);

  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const auto quad = cg::tiled_partition<4>(warp);
  const cg::thread_block_tile<64> wide = cg::tiled_partition<64>(block);
  const cg::thread_block_tile<256> wider = cg::tiled_partition<256>(block);
  static_assert(same<decltype(wider.ballot(1)), cg::lane_mask<256>>);
  static_assert(same<decltype(warp.ballot(1)), unsigned>);
  static_assert(same<decltype(wide.ballot(1)), unsigned long long>);
  static_assert(same<decltype(cg::thread_block_tile<32>::thread_scope), const cg::thread_scope>);
  static_assert(same<decltype(decltype(quad)::num_threads()), unsigned>);
  static_assert(same<decltype(decltype(quad)::meta_group_rank()), unsigned>);
  static_assert(same<decltype(decltype(cg::tiled_partition<256>(block))::meta_group_size()), unsigned>);
  static_assert(same<decltype(cg::this_thread().meta_group_rank()), unsigned>);
  static_assert(same<decltype(cg::tiled_partition<8>(block)), cg::thread_block_tile<8, cg::thread_block>>);
  through_base(const_cast<cg::thread_block_tile<32>&>(warp), wider);
  group_basics(warp);
  group_basics(quad);
  group_basics(wide);
  group_basics(wider);
  lane_operations(warp, out);
  lane_operations(quad, out);
  lane_operations(wide, out);
  lane_operations(wider, out);
  collectives(warp, data, out);
  collectives(wider, data, out);
  copies(warp, data);
  copies(wider, data);
  group_basics(cg::this_thread());
  cg::block_tile_memory<1024> scratch;
  (void)cg::this_thread_block(scratch);

  const cg::coalesced_group active = cg::coalesced_threads();
  group_basics(active);
  lane_operations(active, out);
  collectives(active, data, out);
  copies(active, data);
  group_basics(cg::labeled_partition(active, out[0]));
  group_basics(cg::labeled_partition(warp, out[0]));
  group_basics(cg::binary_partition(active, out[0] > 0));
  group_basics(cg::binary_partition(warp, out[0] > 0));
  group_basics(cg::tiled_partition(active, 4));
  static_assert(same<decltype(cg::coalesced_group::thread_scope), const cg::thread_scope>);
  group_basics(cg::labeled_partition(warp, out[0] > 0));
  group_basics(cg::labeled_partition(active, data));
  group_basics(cg::labeled_partition(warp, static_cast<const int*>(data)));
  cg::coalesced_group some = cg::coalesced_threads();
  through_base(some, active);

  const cg::thread_group any = cg::tiled_partition(block, 32);
  group_basics(any);
  group_basics(cg::tiled_partition(any, 4));
  group_basics(cg::thread_group(grid));
  group_basics(cg::thread_group(active));
  group_basics(cg::thread_group(cluster));
  group_basics(cg::thread_group(multi_grid));
  static_assert(same<decltype(any.get_type()), cg::group_type>);

  cg::lane_mask<128> mask;
  mask.set(3).reset(4);
  out[5] = static_cast<int>(mask.count() + mask.test(3) + mask.any() + mask.none() + (mask == ~mask) +
                            static_cast<int>((mask & mask | mask ^ mask).word(0)));
}

// The host side: launches, occupancy, device queries, memory, streams, errors.
void host_side() {
  const cg::launch_config config{dim3(2), dim3(64), 0, cg::stream_t{}};
  const int shared_bytes = 256;
  const cg::launch_config with_int_shared{dim3(2), dim3(64), shared_bytes};
  const cg::launch_config shape_only{dim3(2), dim3(64)};
  (void)with_int_shared;
  (void)shape_only;
  cg::launch(kernel_side, config, static_cast<int*>(nullptr), static_cast<int*>(nullptr));
  cg::launch_cooperative(kernel_side, config, static_cast<int*>(nullptr), static_cast<int*>(nullptr));
  cg::launch<kernel_side>(config, static_cast<int*>(nullptr), static_cast<int*>(nullptr));
  cg::launch_cooperative<kernel_side>(config, static_cast<int*>(nullptr), static_cast<int*>(nullptr));
  int* none = nullptr;
  cg::launch(kernel_side, {dim3(1, 2, 3), dim3(32, 2)}, none, none);  // lvalue arguments, braced config
  static_assert(same<decltype(cg::launch(kernel_side, config, none, none)), void>);
  static_assert(same<decltype(cg::launch_cooperative<kernel_side>(config, none, none)), void>);
  static_assert(same<decltype(cg::max_active_blocks_per_sm(kernel_side, 64)), int>);
  static_assert(same<decltype(cg::max_active_blocks_per_sm(kernel_side, 64, std::size_t{1024})), int>);
  static_assert(same<decltype(cg::max_cooperative_grid(kernel_side, 64)), int>);
  static_assert(same<decltype(cg::max_cooperative_grid(kernel_side, 64, 0)), int>);
  static_assert(same<decltype(cg::set_max_dynamic_shared_memory(kernel_side, 1024)), void>);
  cg::launch_config clustered = config;
  clustered.cluster = dim3(2);
  static_assert(same<decltype(cg::max_active_clusters(kernel_side, clustered)), int>);
  (void)cg::max_active_clusters(kernel_side, clustered);
  const std::vector<cg::device_launch> grids{{0, config}};
  cg::launch_cooperative_multi_device(kernel_side, grids, [&](unsigned) { return std::tuple{none, none}; });
  static_assert(same<decltype(cg::can_access_peer(0, 0)), bool>);
  cg::set_max_dynamic_shared_memory(kernel_side, 1024);

  static_assert(same<decltype(cg::device_count()), int>);
  static_assert(same<decltype(cg::get_device()), int>);
  cg::set_device(0);
  static_assert(same<decltype(cg::get_device_properties()), cg::device_properties>);
  static_assert(same<decltype(cg::get_device_properties(0)), cg::device_properties>);
  static_assert(same<decltype(cg::get_device_attribute(cg::device_attribute::warp_size)), long long>);
  static_assert(same<decltype(cg::get_device_attribute(cg::device_attribute::warp_size, 0)), long long>);
  static_assert(same<decltype(cg::set_device(0)), void>);
  static_assert(same<decltype(cg::device_synchronize()), void>);
  cg::device_synchronize();
  static_assert(same<decltype(cg::this_backend), const cg::backend>);

  cg::stream s;
  cg::stream moved = std::move(s);
  s = std::move(moved);
  static_assert(!std::is_copy_constructible_v<cg::stream>);
  static_assert(same<decltype(s.get()), cg::stream_t>);
  s.synchronize();

  int host[4] = {};
  int* device = cg::malloc_device<int>(4);
  cg::copy_to_device(device, host, 4);
  cg::copy_to_host(host, device, 4);
  cg::copy_on_device(device, device, 4);
  cg::fill(device, 7, 4);
  static_assert(same<decltype(cg::malloc_device<pair_value>(1)), pair_value*>);
  pair_value* pairs = cg::malloc_device<pair_value>(2);
  cg::fill(pairs, pair_value{1, 2.0f}, 2);
  static_assert(same<decltype(cg::copy_to_device(device, host, 4)), void>);
  static_assert(same<decltype(cg::copy_to_host(host, device, 4)), void>);
  static_assert(same<decltype(cg::copy_on_device(device, device, 4)), void>);
  static_assert(same<decltype(cg::fill(device, 7, 4)), void>);
  static_assert(same<decltype(cg::free_device(device)), void>);
  static_assert(same<decltype(cg::device_of(device)), int>);
  static_assert(same<decltype(cg::memory_usage()), cg::device_memory_usage>);
  const cg::device_memory_usage usage = cg::memory_usage(0);
  (void)(usage.free_bytes + usage.total_bytes);
  cg::copy_peer(device, 0, device + 2, 0, 2);
  static_assert(same<decltype(cg::copy_peer(device, 0, device, 0, 2)), void>);
  cg::free_device(pairs);
  cg::free_device(device);

  cg::device_buffer<int> buffer(4);
  cg::device_buffer<int> from_values(std::vector<int>{1, 2});
  buffer = std::move(from_values);
  static_assert(same<decltype(buffer.data()), int*>);
  static_assert(same<decltype(buffer.size()), std::size_t>);
  static_assert(same<decltype(buffer.to_host()), std::vector<int>>);
  buffer.from_host(std::vector<int>{3, 4});
  buffer.fill(5);

  static_assert(std::is_base_of_v<std::runtime_error, cg::error>);
  static_assert(same<decltype(std::declval<const cg::error&>().kind()), cg::errc>);
}

}  // namespace api_surface
