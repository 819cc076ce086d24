/// A random number generator that gives the same sequence for the same seed on every platform
/// (SplitMix64), so that a fuzz or crash test that finds something can be run again exactly.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// Up to `maximumLength` Unicode scalars, each drawn from a pool picked at random, so that a
    /// test controls which kinds of characters (controls, quotes, astral planes) it mixes.
    public mutating func text(from pools: [ClosedRange<UInt32>], maximumLength: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...maximumLength, using: &self) {
            let pool = pools.randomElement(using: &self)!
            // Pools are chosen to hold scalars only; a surrogate is never drawn.
            if let scalar = Unicode.Scalar(UInt32.random(in: pool, using: &self)) { text.unicodeScalars.append(scalar) }
        }
        return text
    }
}
