// The `cohort` command line: help, exit code 2 with a message for every kind
// of bad argument, info and doctor on the host, and a short verified bench.
#include <gtest/gtest.h>

#include <string>

#include "run_cohort.hpp"

namespace {

using cohort_cli_test::run_cohort;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Help, NamesEveryCommand) {
  const auto r = run_cohort("--help");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* command : {"info", "doctor", "bench"}) EXPECT_TRUE(contains(r.out, command)) << r.out;
}

TEST(Help, BenchNamesEveryBenchmarkAndOption) {
  const auto bench = run_cohort("bench --help");
  EXPECT_EQ(bench.exit_code, 0) << bench.err;
  for (const char* name : {"reduce", "scan", "sync"}) EXPECT_TRUE(contains(bench.out, name)) << bench.out;
  const auto reduce = run_cohort("bench reduce --help");
  EXPECT_EQ(reduce.exit_code, 0) << reduce.err;
  for (const char* option : {"--backend", "--sizes", "--repeat", "--seed", "--json", "--plot"})
    EXPECT_TRUE(contains(reduce.out, option)) << reduce.out;
}

TEST(Help, VersionPrintsTheProjectVersion) {
  const auto r = run_cohort("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(contains(r.out, "cohort 0.")) << r.out;
}

struct bad_arguments {
  const char* name;  // of the test case
  const char* args;
  const char* message;  // a part of what stderr must say
};

class BadArguments : public ::testing::TestWithParam<bad_arguments> {};

TEST_P(BadArguments, ExitWithCode2AndSayWhatIsWrong) {
  const auto r = run_cohort(GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, GetParam().message)) << "stderr: " << r.err;
  EXPECT_TRUE(r.out.empty()) << "stdout: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadArguments,
    ::testing::Values(
        bad_arguments{"NoCommand", "", "a command is required"},
        bad_arguments{"UnknownCommand", "frobnicate", "frobnicate"},
        bad_arguments{"BenchWithoutBenchmark", "bench", "reduce, scan or sync"},
        bad_arguments{"UnknownBenchmark", "bench sort", "sort"},
        bad_arguments{"UnknownOption", "info --verbose", "--verbose"},
        bad_arguments{"SizeSuffix", "bench reduce --sizes 12X", "12X"},
        bad_arguments{"SizeZero", "bench reduce --sizes 0", "bad size `0`"},
        bad_arguments{"SizeRangeBackwards", "bench reduce --sizes 16M..1K", "16M..1K"},
        bad_arguments{"SizeOfFourteenDigits", "bench reduce --sizes 99999999999999", "sizes run from 1 to 2^40"},
        bad_arguments{"SizesMissing", "bench reduce --sizes", "--sizes"},
        bad_arguments{"RepeatZero", "bench reduce --repeat 0", "--repeat"},
        bad_arguments{"RepeatNotANumber", "bench reduce --repeat many", "--repeat"},
        bad_arguments{"BackendUnknown", "bench reduce --backend opencl", "--backend"},
        bad_arguments{"BackendNotBuiltIn", "bench reduce --backend cuda", "run cohort-cuda"},
        bad_arguments{"PlotNotSvg", "bench reduce --plot chart.png", "SVG"},
        bad_arguments{"JsonInMissingDirectory", "bench reduce --sizes 1K --json /no-such-dir/r.json",
                      "--json /no-such-dir/r.json: cannot write there (No such file"},
        // Found by opening it, as root too: /proc takes no new file whatever its mode says.
        bad_arguments{"JsonWhereNoFileCanBeMade", "bench reduce --sizes 1K --json /proc/cohort.json",
                      "--json /proc/cohort.json: cannot write there"},
        bad_arguments{"JsonWithoutAName", "bench reduce --sizes 1K --json ''", "needs a file name"},
        bad_arguments{"JsonAndPlotOneFile", "bench sync --json /tmp/cohort-both.svg --plot /tmp/cohort-both.svg",
                      "--json and --plot both name /tmp/cohort-both.svg"},
        bad_arguments{"JsonIsADirectory", "bench scan --json /tmp", "--json /tmp: is a directory"},
        bad_arguments{"PlotInMissingDirectory", "bench sync --plot /no-such-dir/c.svg",
                      "--plot /no-such-dir/c.svg: cannot write there"},
        bad_arguments{"BlockTooLarge", "bench sync --sizes 4096", "4096 threads per block"},
        // CLI11 alone wrapped -1 to 2^64 - 1 and clamped what is past the type's maximum to it.
        bad_arguments{"SeedNegative", "bench reduce --seed -1",
                      "bad seed `-1`: expected decimal digits from 0 to 18446744073709551615, "
                      "without a sign"},
        bad_arguments{"SeedPastTwoToThe64", "bench scan --seed 18446744073709551616",
                      "bad seed `18446744073709551616`: expected decimal digits from 0 to "
                      "18446744073709551615"},
        bad_arguments{"SeedWithPlus", "bench sync --seed +7", "bad seed `+7`"},
        bad_arguments{"SeedInHex", "bench reduce --seed 0x10", "bad seed `0x10`"},
        bad_arguments{"SoakSeedNegative", "soak --seed -1",
                      "bad seed `-1`: expected decimal digits from 0 to 4294967295, without a sign"},
        bad_arguments{"SoakSeedPastItsType", "soak --seed 4294967296",
                      "bad seed `4294967296`: expected decimal digits from 0 to 4294967295"}),
    [](const ::testing::TestParamInfo<bad_arguments>& info) { return std::string(info.param.name); });

TEST(Info, ListsTheHostDevice) {
  const auto r = run_cohort("info");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "backend built in: host")) << r.out;
  EXPECT_TRUE(contains(r.out, "device 0:")) << r.out;
  EXPECT_TRUE(contains(r.out, "cooperative launch")) << r.out;
}

TEST(Doctor, PassesEveryCheckOnTheHost) {
  const auto r = run_cohort("doctor");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "cooperative-launch attribute")) << r.out;
  EXPECT_TRUE(contains(r.out, "cooperative grid at 1024 threads")) << r.out;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
  EXPECT_TRUE(contains(r.out, "checks passed")) << r.out;
}

// A host backend configured with a warp size it cannot emulate has no
// usable device: doctor says so on a FAIL line and exits 1.
TEST(Doctor, FailsAndSaysWhyOnAMisconfiguredDevice) {
  const auto r = run_cohort("doctor", "COHORT_WARP_SIZE=48");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "FAIL")) << r.out;
  EXPECT_TRUE(contains(r.out, "COHORT_WARP_SIZE=48 is not valid: expected 32 or 64")) << r.out;
  EXPECT_TRUE(contains(r.out, "checks failed")) << r.out;
}

// A bad environment value is no verdict on the device: it is named once, as
// the error it is, instead of failing every launch check with it.
TEST(Doctor, ABadEnvironmentValueEndsTheDeviceChecksNamingIt) {
  const auto r = run_cohort("doctor", "COHORT_WORKERS=abc");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "FAIL  device 0")) << r.out;
  EXPECT_TRUE(contains(r.out, "COHORT_WORKERS=abc is not valid: expected an integer from 1 to 4096")) << r.out;
  EXPECT_FALSE(contains(r.out, "cooperative launch on a stream")) << r.out;
}

// Each virtual device has its own memory, which info and doctor report.
TEST(Doctor, ReportsEachVirtualDevicesOwnMemory) {
  const auto r = run_cohort("doctor", "COHORT_DEVICE_COUNT=2 COHORT_DEVICE_MEMORY=64M");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out,
                       "67108864 of 67108864 bytes free; allocations made while it is current are its "
                       "(device_of: 1)"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "each virtual device has its own capacity (COHORT_DEVICE_MEMORY)")) << r.out;
  EXPECT_TRUE(contains(r.out, "copy_peer copies between devices' memories")) << r.out;
  const auto info = run_cohort("info", "COHORT_DEVICE_MEMORY=64M");
  EXPECT_TRUE(contains(info.out, "the virtual device's own; COHORT_DEVICE_MEMORY sets it")) << info.out;
}

// Which devices reach each other's memory, and so where a multi-device launch's barrier goes.
TEST(Doctor, ReportsPeerAccessAndWhereTheMultiGridBarrierGoes) {
  const auto r = run_cohort("doctor", "COHORT_DEVICE_COUNT=3");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "3 device(s) for launch_cooperative_multi_device")) << r.out;
  EXPECT_TRUE(contains(r.out, "peer access: 0->1 yes, 0->2 yes, 1->0 yes, 1->2 yes, 2->0 yes, 2->1 yes")) << r.out;
  EXPECT_TRUE(contains(r.out, "puts its barrier (multi_grid_memory::automatic) in device 0's memory")) << r.out;
  const auto one = run_cohort("doctor");
  EXPECT_TRUE(contains(one.out, "peer access: n/a, one device")) << one.out;
  // Past four devices the pairs are counted, not listed (64 devices have 4032).
  const auto many = run_cohort("doctor", "COHORT_DEVICE_COUNT=16");
  EXPECT_TRUE(contains(many.out, "peer access: every one of the 240 pairs;")) << many.out;
}

TEST(Doctor, UsesTheVirtualDeviceTheEnvironmentDescribes) {
  const auto r = run_cohort("doctor", "COHORT_SM_COUNT=3");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.out, "x 3 SMs")) << r.out;
}

TEST(BenchReduce, ShortHostRunPassesVerification) {
  const auto r = run_cohort("bench reduce --sizes 1024,65536 --repeat 2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* variant :
       {"copy", "atomic", "two-pass", "shared-tree", "warp-shuffle", "cooperative", "grid-reduce"})
    EXPECT_TRUE(contains(r.out, variant)) << r.out;
  EXPECT_FALSE(contains(r.out, "cub")) << "CUB is a rival of cohort-cuda only: " << r.out;
  EXPECT_FALSE(contains(r.out, "nvidia")) << "NVIDIA's CG is a rival of cohort-cuda only: " << r.out;
  EXPECT_TRUE(contains(r.out, "GB/s")) << r.out;
  EXPECT_TRUE(contains(r.out, "% copy")) << r.out;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
}

TEST(BenchScan, ShortHostRunPassesVerification) {
  const auto r = run_cohort("bench scan --sizes 1000,70000 --repeat 2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* variant : {"copy", "three-kernel", "cooperative", "grid-scan"})
    EXPECT_TRUE(contains(r.out, variant)) << r.out;
  EXPECT_FALSE(contains(r.out, "cub")) << r.out;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
}

TEST(BenchSync, ShortHostRunPassesVerification) {
  const auto r = run_cohort("bench sync --sizes 32,96,128 --repeat 2");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  for (const char* variant : {"block-sync", "tile-sync-32", "tile-sync-128", "grid-sync-sm", "grid-sync-full"})
    EXPECT_TRUE(contains(r.out, variant)) << r.out;
  EXPECT_FALSE(contains(r.out, "nvidia")) << r.out;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
}

// Every seed the type holds is taken, up to its maximum.
TEST(Seed, TheLargestSeedOfEachTypeIsTaken) {
  const auto bench = run_cohort("bench reduce --sizes 1024 --repeat 1 --seed 18446744073709551615");
  EXPECT_EQ(bench.exit_code, 0) << bench.out << bench.err;
  EXPECT_FALSE(contains(bench.out, "FAIL")) << bench.out;
  const auto soak = run_cohort("soak --phases 2 --launches 1 --threads 32 --seed 4294967295");
  EXPECT_EQ(soak.exit_code, 0) << soak.out << soak.err;
}

// The soak's block size is checked against the device, as bench sync's is.
TEST(Soak, ABlockLargerThanTheDeviceRunsIsAUsageError) {
  const auto r = run_cohort("soak --threads 1024 --phases 1 --launches 1", "COHORT_MAX_THREADS_PER_BLOCK=256");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "--threads 1024: this device runs at most 256 threads per block")) << r.err;
}

// On a device too small for a cluster of 8 resident blocks (one SM of 2048
// threads at blocks of 1024), the cluster-of-8 row is left out with the
// reason, and the rest of the bench runs (it used to launch a grid of no
// blocks, an error that ended the whole run).
TEST(BenchSync, ARowTheDeviceCannotRunIsLeftOutWithTheReason) {
  const auto r = run_cohort("bench sync --sizes 1024 --repeat 1", "COHORT_SM_COUNT=1");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(contains(r.err, "cluster-sync-8 at 1024 threads left out: no cluster of 8 blocks of 1024 threads"))
      << r.err;
  EXPECT_TRUE(contains(r.out, "grid-sync-full")) << r.out;
  EXPECT_FALSE(contains(r.out, "FAIL")) << r.out;
}

}  // namespace
