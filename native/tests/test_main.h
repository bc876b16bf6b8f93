// A minimal test harness for infer_native_tests: TEST() registers a case, CHECK() records a
// failure with file:line and keeps going, so one run reports every broken case.
#pragma once
#include <cstdio>
#include <string>
#include <vector>

namespace infer_test {

struct test_case {
  const char* name;
  void (*fn)();
};
std::vector<test_case>& registry();
struct registrar {
  registrar(const char* name, void (*fn)()) { registry().push_back({name, fn}); }
};

extern long g_checks;
extern long g_failures;
void report_failure(const char* file, int line, const std::string& msg);

// Bench mode entry (bench.cc).
int run_bench(int argc, char** argv);

}  // namespace infer_test

#define TEST(name)                                                      \
  static void name();                                                   \
  static ::infer_test::registrar name##_registrar(#name, name);         \
  static void name()

#define CHECK(cond, msg)                                                              \
  do {                                                                                \
    ::infer_test::g_checks++;                                                         \
    if (!(cond)) ::infer_test::report_failure(__FILE__, __LINE__, std::string(#cond) + ": " + (msg)); \
  } while (0)
