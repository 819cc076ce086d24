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
    /// large space (every byte of a text, every scalar) tries every `exhaustiveStride`-th there
    /// instead, and one that repeats rounds of random work runs `rounds(_:)` of them. The
    /// sanitizers look at what the code does with memory and threads, which a sample meets as the
    /// whole does; the plain run checks every answer.
    public static let underSanitizer = getenv("TODO_TEST_SANITIZER") != nil

    /// 1 in a plain run; 16 under a sanitizer.
    public static var exhaustiveStride: Int { underSanitizer ? 16 : 1 }

    /// `count` in a plain run; a quarter of it (at least 1) under a sanitizer: a round of random
    /// work is less alike its neighbours than a byte of a text is.
    public static func rounds(_ count: Int) -> Int { underSanitizer ? max(1, count / 4) : count }

    /// `first` through `last`, every `exhaustiveStride`-th of them, and `last` always.
    public static func sample(_ first: Int, through last: Int) -> [Int] {
        var values = Array(stride(from: first, to: last, by: exhaustiveStride))
        values.append(last)
        return values
    }
}
