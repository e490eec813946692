// Shared memory between guard zones: a kernel that writes past its dynamic
// shared memory, or far past its last __shared__ variable, faults at once and
// the launch fails naming the thread and the offset, where the write reached
// the malloc heap or the runtime's thread-locals before; under
// COHORT_CHECK=memory a write just past the last __shared__ variable is found
// when the block ends. Each launch after a caught overrun runs whole.
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cohort/cohort.hpp>
#include <regex>
#include <string>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using cohort_test::launch_error;
using cohort_test::scoped_env;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

// The int `index` ints from `array`, through an address the compiler cannot
// tie to the array (UBSan's object-size check would report the overrun
// itself, before the runtime's guard could).
volatile int& int_at(int* array, int index) {
  volatile std::uintptr_t address = reinterpret_cast<std::uintptr_t>(array);
  return *reinterpret_cast<volatile int*>(address + static_cast<std::uintptr_t>(static_cast<long>(index) * 4));
}

// Thread 0 of every block writes the int `past` ints beyond `ints` ints of
// dynamic shared memory; every thread then writes its rank to `out`.
__global__ void writes_past_dynamic(int* out, int ints, int past) {
  int* shared = cg::dynamic_shared<int>();
  if (threadIdx.x == 0) int_at(shared, ints + past) = 7;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}
constexpr int dynamic_write_line = __LINE__ - 4;

// The fault's message names the faulting access: by its source line where this
// file has line tables (the sanitizer presets build with -g), else by the
// faulting instruction's address in this program as linked, for addr2line: it
// lies in `kernel`, whose code is well under 4 KiB.
void expect_the_access_located(const std::string& message, const void* kernel, int line) {
  if (message.find("shared_memory_guards.cpp:") != std::string::npos) {
    EXPECT_THAT(message, HasSubstr("shared_memory_guards.cpp:" + std::to_string(line) + ")"));
    return;
  }
  std::smatch m;
  const std::regex address(
      "at (0x[0-9a-f]+) of ([^:]+): `addr2line -e ([^ ]+) (0x[0-9a-f]+)` names its line in a "
      "build with -g\\)");
  ASSERT_TRUE(std::regex_search(message, m, address)) << message;
  EXPECT_EQ(m[2], m[3]);
  EXPECT_EQ(m[1], m[4]);
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  ASSERT_GT(n, 0);
  EXPECT_EQ(m[2], std::string(self, static_cast<std::size_t>(n)));
  Dl_info info{};
  ASSERT_NE(dladdr(kernel, &info), 0);
  // A position-independent program is linked at 0 and loaded at dli_fbase.
  const bool moved = static_cast<const ElfW(Ehdr)*>(info.dli_fbase)->e_type == ET_DYN;
  const std::uintptr_t start =
      reinterpret_cast<std::uintptr_t>(kernel) - (moved ? reinterpret_cast<std::uintptr_t>(info.dli_fbase) : 0);
  const std::uintptr_t at = std::stoull(m[1], nullptr, 16);
  EXPECT_GE(at, start);
  EXPECT_LT(at, start + 4096);
}

void expect_runs_whole() {
  cg::device_buffer<int> out(2 * 32);
  out.fill(-1);
  cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 256}, out.data(), 0, 0);
  const std::vector<int> got = out.to_host();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], i % 32);
}

TEST(SharedMemoryGuards, AWriteJustPastDynamicSharedMemoryIsAnErrorNamingTheOffset) {
  cg::device_buffer<int> out(2 * 32);
  const cg::error e =
      launch_error([&] { cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 256}, out.data(), 64, 1); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("in kernel `"), HasSubstr("writes_past_dynamic"),
                              HasSubstr("block (0,0,0), thread (0,0,0): a write at offset 260 of dynamic shared "
                                        "memory, past the 256 bytes of dynamic shared memory the launch gave"),
                              HasSubstr("(the access is in `(anonymous namespace)::writes_past_dynamic(int*, int, "
                                        "int)`, at ")));
  expect_the_access_located(e.what(), reinterpret_cast<const void*>(&writes_past_dynamic), dynamic_write_line);
  expect_runs_whole();
}

// Given half of what it uses: passed, and the heap was damaged ("double free
// or corruption" at exit).
TEST(SharedMemoryGuards, AKernelGivenHalfTheDynamicSharedMemoryItUsesFails) {
  cg::device_buffer<int> out(2 * 32);
  const cg::error e =
      launch_error([&] { cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 2048}, out.data(), 512, 511); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), HasSubstr("a write at offset 4092 of dynamic shared memory, past the 2048 bytes"));
  expect_runs_whole();
}

TEST(SharedMemoryGuards, WritesUpTo64KiBPastDynamicSharedMemoryAreCaught) {
  cg::device_buffer<int> out(2 * 32);
  for (const int past : {1024, 2048, 8192, 16383}) {
    const cg::error e =
        launch_error([&] { cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 256}, out.data(), 64, past); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << past;
    EXPECT_THAT(e.what(), HasSubstr("a write at offset " + std::to_string(4 * (64 + past)) +
                                    " of dynamic shared memory, past the 256 bytes"));
  }
  expect_runs_whole();
}

// Thread 0 writes `past` ints beyond the block's __shared__ array of 32.
__global__ void writes_past_static(int* out, int past) {
  __shared__ int tile[32];
  tile[threadIdx.x % 32] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) int_at(tile, 32 + past) = 7;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x % 32];
}
constexpr int static_write_line = __LINE__ - 4;

// Far enough past to cross the rest of the guard spacer's first page, not
// past its 64 KiB of guard: each faults, in every mode. The message names
// the last __shared__ variable before the guard (in this binary of many
// kernels, another kernel's), and the offset from its start.
TEST(SharedMemoryGuards, AWriteFarPastTheLastSharedVariableIsAnErrorNamingIt) {
  cg::device_buffer<int> out(2 * 32);
  for (const int past : {1100, 4096, 16000}) {
    const cg::error e = launch_error([&] { cg::launch(writes_past_static, {dim3(2), dim3(32)}, out.data(), past); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << past;
    EXPECT_THAT(e.what(), AllOf(HasSubstr("writes_past_static"), HasSubstr(", thread (0,0,0): a write at offset "),
                                HasSubstr(" of __shared__ `"),
                                HasSubstr(" bytes; the last __shared__ variable, followed by a guard zone), "),
                                HasSubstr(" bytes past its end"),
                                HasSubstr("(the access is in `(anonymous namespace)::writes_past_static(int*, "
                                          "int)`, at ")))
        << past;
    expect_the_access_located(e.what(), reinterpret_cast<const void*>(&writes_past_static), static_write_line);
  }
  cg::launch(writes_past_static, {dim3(2), dim3(32)}, out.data(), -1);  // within the array: runs whole
  const std::vector<int> got = out.to_host();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], i % 32 == 31 ? 7 : i % 32);
}

}  // namespace

// The runtime's spacer after the __shared__ variables (src/host_runtime/scheduling/runtime_tls.hpp):
// its first bytes, before the guard's first page, are what a write just past
// the last __shared__ variable reaches.
namespace cohort::detail::host {
extern thread_local constinit std::byte tls_guard_spacer[64 * 1024 + 4096];
// The low spacer, between the runtime's thread-locals and the __shared__
// variables: its whole page is what a write a page before the first reaches.
extern thread_local constinit std::byte tls_low_guard_spacer[2 * 4096];
}  // namespace cohort::detail::host

namespace {

__global__ void writes_just_past_the_shared_variables(int* out) {
  if (threadIdx.x == 0) reinterpret_cast<volatile unsigned char*>(cg::detail::host::tls_guard_spacer)[4] = 7;
  out[threadIdx.x] = 1;
}

__global__ void writes_a_page_before_the_shared_variables(int* out) {
  const auto low = reinterpret_cast<std::uintptr_t>(cg::detail::host::tls_low_guard_spacer);
  if (threadIdx.x == 0) *reinterpret_cast<volatile int*>((low + 4095) & ~std::uintptr_t{4095}) = 7;
  out[threadIdx.x] = 1;
}

// An underrun that would have reached the runtime's thread-locals below.
TEST(SharedMemoryGuards, AWriteAPageBeforeTheFirstSharedVariableIsAnErrorNamingIt) {
  cg::device_buffer<int> out(32);
  const cg::error e =
      launch_error([&] { cg::launch(writes_a_page_before_the_shared_variables, {dim3(1), dim3(32)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("block (0,0,0), thread (0,0,0): a write "), HasSubstr(" bytes before __shared__ `"),
                    HasSubstr(" bytes; the first __shared__ variable, preceded by a guard zone)")));
}

TEST(SharedMemoryGuards, UnderMemoryCheckingAWriteJustPastTheLastSharedVariableIsFound) {
  cg::device_buffer<int> out(32);
  {
    const scoped_env check("COHORT_CHECK", "memory");
    const cg::error e =
        launch_error([&] { cg::launch(writes_just_past_the_shared_variables, {dim3(1), dim3(32)}, out.data()); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("writes_just_past_the_shared_variables"),
                                HasSubstr("block (0,0,0): a write at offset "), HasSubstr(" of __shared__ `"),
                                HasSubstr(" bytes past its end (found when the block ended, COHORT_CHECK=memory)")));
    // Cleared once found: the next launch that writes nothing there passes.
    cg::launch(writes_past_static, {dim3(1), dim3(32)}, out.data(), -1);
  }
  // Without the check the byte lands in the spacer, which holds nothing: no error.
  cg::launch(writes_just_past_the_shared_variables, {dim3(1), dim3(32)}, out.data());
}

}  // namespace

namespace {

struct tls_variable {
  std::string name;
  std::uintptr_t offset;
};

// This program's thread-locals, from its ELF symbol table.
std::vector<tls_variable> thread_locals_of_this_program() {
  std::vector<tls_variable> found;
  const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  struct stat st{};
  if (fd < 0 || fstat(fd, &st) != 0) return found;
  void* map = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return found;
  const auto* base = static_cast<const char*>(map);
  const auto* header = reinterpret_cast<const ElfW(Ehdr)*>(base);
  const auto* sections = reinterpret_cast<const ElfW(Shdr)*>(base + header->e_shoff);
  for (unsigned i = 0; i < header->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB) continue;
    const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(base + sections[i].sh_offset);
    const char* names = base + sections[sections[i].sh_link].sh_offset;
    for (std::size_t k = 0; k < sections[i].sh_size / sizeof(ElfW(Sym)); ++k)
      if (ELF64_ST_TYPE(symbols[k].st_info) == STT_TLS && symbols[k].st_shndx != SHN_UNDEF)
        found.push_back({names + symbols[k].st_name, static_cast<std::uintptr_t>(symbols[k].st_value)});
  }
  munmap(map, static_cast<std::size_t>(st.st_size));
  return found;
}

// The layout the guards rely on (src/host_runtime/scheduling/runtime_tls.hpp): every one of
// the runtime's thread-locals lies below the low spacer, which lies below
// the kernels' __shared__ variables (a thread_local added to the runtime
// outside runtime_tls.cpp would lie elsewhere, where an overrun may reach
// it), none has a construction guard, and the high spacer comes after the
// __shared__ variables.
TEST(SharedMemoryGuards, TheRuntimesThreadLocalsLieBelowTheSharedVariablesAndTheSpacerAfterThem) {
  const std::vector<tls_variable> all = thread_locals_of_this_program();
  const auto named = [&](const std::string& part) {
    return std::find_if(all.begin(), all.end(),
                        [&](const tls_variable& v) { return v.name.find(part) != std::string::npos; });
  };
  const auto spacer = named("16tls_guard_spacerE");
  const auto low = named("20tls_low_guard_spacerE");
  const auto tile = named("18writes_past_static");  // writes_past_static's __shared__ tile
  ASSERT_NE(spacer, all.end());
  ASSERT_NE(low, all.end());
  ASSERT_NE(tile, all.end());
  EXPECT_LT(low->offset, tile->offset);
  EXPECT_LT(tile->offset, spacer->offset);
  int runtime = 0;
  for (const tls_variable& v : all) {
    if (v.name.find("6cohort6detail4host") == std::string::npos || &v == &*spacer || &v == &*low) continue;
    ++runtime;
    EXPECT_LT(v.offset, low->offset) << v.name << " lies above the low spacer, near the __shared__ variables";
    EXPECT_EQ(v.name.rfind("_ZGV", 0), std::string::npos) << v.name << " is a construction guard";
  }
  EXPECT_GE(runtime, 5);  // current_block, current_thread & co. were found
}

}  // namespace
