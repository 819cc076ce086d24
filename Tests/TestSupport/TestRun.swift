#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the tests are being run.
public enum TestRun {
    /// Whether a sanitizer watches this run (`.ci/run` sets `TODO_TEST_SANITIZER` for its
    /// ThreadSanitizer and AddressSanitizer passes). A sanitizer makes each case cost ten times as
    /// much, and the plain run has already tried every one: a test that tries every case of a
    /// large space (every byte of a text) tries every `exhaustiveStride`-th there instead.
    public static let underSanitizer = getenv("TODO_TEST_SANITIZER") != nil

    /// 1 in a plain run; 4 under a sanitizer.
    public static var exhaustiveStride: Int { underSanitizer ? 4 : 1 }
}
