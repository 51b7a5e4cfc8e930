// Mock test-framework macros, shaped like the real expansions of gtest's
// TEST/EXPECT_TRUE, doctest's TEST_CASE/CHECK and Catch2's
// TEST_CASE/REQUIRE/SECTION.
#pragma once
namespace testing {
class Test {
public:
  virtual ~Test() = default;
  virtual void TestBody() = 0;
};
void fail();
} // namespace testing
#define TEST(Suite, Name)                                                      \
  class Suite##_##Name##_Test : public ::testing::Test {                       \
    void TestBody() override;                                                  \
  };                                                                           \
  void Suite##_##Name##_Test::TestBody()
#define EXPECT_TRUE(c)                                                         \
  switch (0)                                                                   \
  case 0:                                                                      \
  default:                                                                     \
    if (c)                                                                     \
      ;                                                                        \
    else                                                                       \
      ::testing::fail()

namespace doctest {
namespace detail {
struct TestCase {
  TestCase(void (*f)(), const char *file, int line, const char *name);
};
int regTest(const TestCase &tc);
void check(bool b);
} // namespace detail
} // namespace doctest
#define DOCTEST_CAT_(a, b) a##b
#define DOCTEST_CAT(a, b) DOCTEST_CAT_(a, b)
#define DOCTEST_TEST_CASE_IMPL(f, name)                                        \
  static void f();                                                             \
  static const int DOCTEST_CAT(f, _reg) = doctest::detail::regTest(            \
      doctest::detail::TestCase(&f, __FILE__, __LINE__, name));                \
  static void f()
#define DOCTEST_TEST_CASE(name)                                                \
  DOCTEST_TEST_CASE_IMPL(DOCTEST_CAT(DOCTEST_ANON_FUNC_, __LINE__), name)
#define CHECK(c)                                                               \
  do {                                                                         \
    doctest::detail::check(static_cast<bool>(c));                              \
  } while (false)

namespace Catch {
struct AutoReg {
  AutoReg(void (*f)(), const char *name);
};
struct Section {
  explicit operator bool() const;
};
Section makeSection(const char *name);
void handle(bool b);
} // namespace Catch
#define CATCH_TEST_CASE_IMPL(f, name)                                          \
  static void f();                                                             \
  static const Catch::AutoReg DOCTEST_CAT(f, _reg)(&f, name);                  \
  static void f()
#define CATCH_TEST_CASE(name)                                                  \
  CATCH_TEST_CASE_IMPL(DOCTEST_CAT(CATCH_ANON_FUNC_, __LINE__), name)
#define REQUIRE(...)                                                           \
  do {                                                                         \
    Catch::handle(static_cast<bool>(__VA_ARGS__));                             \
  } while ((void)0, (false) && static_cast<const bool &>(!!(__VA_ARGS__)))
#define SECTION(name) if (Catch::Section const &s = Catch::makeSection(name))
