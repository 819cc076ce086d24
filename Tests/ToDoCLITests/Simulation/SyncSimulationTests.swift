import Foundation
import TestSupport
import XCTest

/// The sync simulator's fixed seeds (`SyncSimulation`): each a run of devices, a phone and a
/// server with faults, its invariants checked after every step. `TODO_SIMULATION_SEEDS=N` and
/// `TODO_SIMULATION_FIRST_SEED=S` run other seeds (`scripts/simulate` runs them for minutes); a
/// failure prints its seed and the trace that replays it.
final class SyncSimulationTests: XCTestCase {
    private var environment: [String: String] { ProcessInfo.processInfo.environment }

    private func runSeeds(count: Int, first: UInt64, _ options: SyncSimulation.Options) throws {
        let count = environment["TODO_SIMULATION_SEEDS"].flatMap(Int.init) ?? count
        let first = environment["TODO_SIMULATION_FIRST_SEED"].flatMap(UInt64.init) ?? first
        var options = options
        options.steps = environment["TODO_SIMULATION_STEPS"].flatMap(Int.init) ?? options.steps
        var failures = 0
        for seed in first..<(first + UInt64(count)) {
            do {
                try SyncSimulation(seed: seed, options: options).run()
            } catch {
                failures += 1
                XCTFail("seed \(seed): \(error)")
                if failures >= (environment["TODO_SIMULATION_MAX_FAILURES"].flatMap(Int.init) ?? 3) { return }
            }
        }
    }

    func test_twoLaptopsAndAPhone_onARadicaleLikeServer() throws {
        try runSeeds(count: 80, first: 1, SyncSimulation.Options(laptops: 2, steps: 50, habit: .radicale))
    }

    func test_threeLaptopsAndAPhone_onACyrusLikeServer() throws {
        try runSeeds(count: 60, first: 1_001, SyncSimulation.Options(laptops: 3, steps: 50, habit: .cyrus))
    }

    func test_twoLaptopsAndAPhone_onADAViCalLikeServer() throws {
        try runSeeds(count: 60, first: 2_001, SyncSimulation.Options(laptops: 2, steps: 50, habit: .davical))
    }
}
