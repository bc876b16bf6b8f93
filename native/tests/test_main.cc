// infer_native_tests: runs every registered test (optionally those whose name contains --filter),
// prints one summary line, exits 1 on any failure. `--list` prints the case names (one per line,
// so vitest can report each case as its own test); `--bench` runs the kernel benchmark instead.
#include <chrono>
#include <cstring>

#include "tests/test_main.h"

namespace infer_test {
int gguf_info(const char* path);     // gguf_test.cc
int gguf_dequant(const char* path);  // gguf_test.cc
}

namespace infer_test {

std::vector<test_case>& registry() {
  static std::vector<test_case> r;
  return r;
}
long g_checks = 0;
long g_failures = 0;
static const char* g_current = "";

void report_failure(const char* file, int line, const std::string& msg) {
  g_failures++;
  if (g_failures <= 200) std::fprintf(stderr, "FAIL [%s] %s:%d: %s\n", g_current, file, line, msg.c_str());
}

}  // namespace infer_test

int main(int argc, char** argv) {
  using namespace infer_test;
  const char* filter = nullptr;
  for (int i = 1; i < argc; i++) {
    if (!std::strcmp(argv[i], "--bench")) return run_bench(argc, argv);
    if (!std::strcmp(argv[i], "--gguf-info") && i + 1 < argc) return gguf_info(argv[i + 1]);
    if (!std::strcmp(argv[i], "--gguf-dequant") && i + 1 < argc) return gguf_dequant(argv[i + 1]);
    if (!std::strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
    if (!std::strcmp(argv[i], "--list")) {
      for (const auto& tc : registry()) std::printf("%s\n", tc.name);
      return 0;
    }
  }
  int ran = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (const auto& tc : registry()) {
    if (filter && !std::strstr(tc.name, filter)) continue;
    g_current = tc.name;
    long before = g_failures;
    auto s = std::chrono::steady_clock::now();
    tc.fn();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - s).count();
    std::printf("%s %s (%.0f ms)\n", g_failures == before ? "ok  " : "FAIL", tc.name, ms);
    ran++;
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("infer_native_tests: %d tests, %ld checks, %ld failures (%.1f s)\n", ran, g_checks, g_failures, secs);
  return g_failures == 0 && ran > 0 ? 0 : 1;
}
