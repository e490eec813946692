// COHORT_CHECK=races on device memory accessed narrower than a word: bytes and
// halves of one word written by different threads are no race, one byte or
// half written by two is, and a thread reading a byte its neighbour's write
// of the next byte followed is compared with that byte's own writer (a cell
// per byte once a word is accessed so: docs/host-backend.md, "Data races").
#include <cohort/cohort.hpp>

#include <cstring>

#include "race_test_support.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned n = 64;

// Threads 2k and 2k+1 both write byte k.
__global__ void two_threads_per_byte(unsigned char* bytes) {
  bytes[threadIdx.x / 2] = static_cast<unsigned char>(threadIdx.x);  // mark:same_byte.write
}

// Threads 2k and 2k+1 both write half k.
__global__ void two_threads_per_half(unsigned short* halves) {
  halves[threadIdx.x / 2] = static_cast<unsigned short>(threadIdx.x);  // mark:same_half.write
}

// Each thread writes its own byte; every thread 4k+2 then reads the byte of
// thread 4k, with no barrier: threads 4k+1 and 4k+2 wrote the word's other
// bytes in between.
__global__ void byte_of_another_thread_without_barrier(unsigned char* bytes, int* out) {
  const unsigned t = threadIdx.x;
  bytes[t] = static_cast<unsigned char>(t + 1);  // mark:byte_neighbour.write
  if (t % 4 == 2) out[t] = bytes[t - 2];         // mark:byte_neighbour.read
}

// Blocks 2k and 2k+1 both write byte k.
__global__ void two_blocks_per_byte(unsigned char* bytes) {
  if (threadIdx.x == 0) bytes[blockIdx.x / 2] = static_cast<unsigned char>(blockIdx.x);  // mark:block_byte.write
}

// Every thread writes its own byte and its own half; after the barrier each
// reads whole words of both.
__global__ void own_bytes_and_halves(unsigned char* bytes, unsigned short* halves, unsigned* out) {
  const unsigned t = threadIdx.x;
  bytes[t] = static_cast<unsigned char>(t + 1);
  halves[t] = static_cast<unsigned short>(t + 1000);
  __syncthreads();
  unsigned from_bytes, from_halves;
  std::memcpy(&from_bytes, bytes + (n - 4 - t / 4 * 4), sizeof from_bytes);
  std::memcpy(&from_halves, halves + (n - 2 - t / 2 * 2), sizeof from_halves);
  out[t] = from_bytes ^ from_halves;
}

// Each block writes its own byte of one word.
__global__ void block_per_byte(unsigned char* bytes) {
  if (threadIdx.x == 0) bytes[blockIdx.x] = static_cast<unsigned char>(blockIdx.x + 1);
}

class DeviceBytes : public ::testing::Test {
 protected:
  cohort_test::scoped_env checks{"COHORT_CHECK", "races"};
  cg::device_buffer<unsigned char> bytes{std::vector<unsigned char>(n, 0)};
  cg::device_buffer<unsigned short> halves{std::vector<unsigned short>(n, 0)};
  cg::device_buffer<unsigned> words{std::vector<unsigned>(n, 0)};
  cg::device_buffer<int> out{std::vector<int>(n, 0)};
};

TEST_F(DeviceBytes, TwoThreadsWritingOneByteRace) {
  const auto e = race_test::race_error([&] { cg::launch(two_threads_per_byte, {dim3(1), dim3(n)}, bytes.data()); });
  const std::string m = e.what();
  race_test::expect_race(m, "write-after-write", "same_byte.write", "same_byte.write");
  EXPECT_NE(m.find("thread (1,0,0) wrote at"), std::string::npos) << m;
  EXPECT_NE(m.find("thread (0,0,0) wrote at"), std::string::npos) << m;
  EXPECT_EQ(race_test::distinct_races(m), 1) << m;
}

TEST_F(DeviceBytes, TwoThreadsWritingOneHalfRace) {
  const auto e = race_test::race_error([&] { cg::launch(two_threads_per_half, {dim3(1), dim3(n)}, halves.data()); });
  race_test::expect_race(e.what(), "write-after-write", "same_half.write", "same_half.write");
}

TEST_F(DeviceBytes, ByteReadAfterItsWordsOtherBytesWereWrittenRaces) {
  const auto e = race_test::race_error(
      [&] { cg::launch(byte_of_another_thread_without_barrier, {dim3(1), dim3(n)}, bytes.data(), out.data()); });
  const std::string m = e.what();
  race_test::expect_race(m, "read-after-write", "byte_neighbour.write", "byte_neighbour.read");
  // Thread 2 read what thread 0 wrote, not thread 1's byte nor its own.
  EXPECT_NE(m.find("thread (2,0,0) read at"), std::string::npos) << m;
  EXPECT_NE(m.find("thread (0,0,0) wrote at"), std::string::npos) << m;
  EXPECT_EQ(race_test::distinct_races(m), 1) << m;
}

TEST_F(DeviceBytes, TwoBlocksWritingOneByteRace) {
  const auto e = race_test::race_error([&] { cg::launch(two_blocks_per_byte, {dim3(4), dim3(n)}, bytes.data()); });
  race_test::expect_race_between_blocks(e.what(), "write-after-write", "block_byte.write", "block_byte.write");
}

TEST_F(DeviceBytes, ThreadsWritingTheirOwnBytesAndHalvesOfOneWordAreNoRace) {
  cg::launch(own_bytes_and_halves, {dim3(1), dim3(n)}, bytes.data(), halves.data(), words.data());
  const auto got = words.to_host();
  // Thread 0 read the last word of each: bytes 61..64, halves 1062..1063.
  EXPECT_EQ(got[0], (61u | 62u << 8 | 63u << 16 | 64u << 24) ^ (1062u | 1063u << 16));
}

TEST_F(DeviceBytes, BlocksWritingTheirOwnBytesOfOneWordAreNoRace) {
  cg::launch(block_per_byte, {dim3(4), dim3(n)}, bytes.data());
  const auto got = bytes.to_host();
  for (unsigned b = 0; b < 4; ++b) EXPECT_EQ(got[b], b + 1) << b;
}

}  // namespace
