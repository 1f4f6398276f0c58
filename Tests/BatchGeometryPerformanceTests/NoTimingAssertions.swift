import XCTest

/// Base class of the performance tests: their `measure { }` blocks report times, and
/// only the correctness checks may fail a test.
///
/// swift-corelibs-xctest (Linux) fails a `measure` whose iterations vary by more than 10%
/// (and 0.1 s): a timing assertion, which on a shared machine reports the neighbours'
/// load, not a defect. That one failure is turned into a printed note here; every other
/// failure is recorded as usual. (Apple's XCTest sets no such limit without a baseline.)
class PerformanceTestCase: XCTestCase {
    #if !canImport(Darwin)
    override func recordFailure(
        withDescription description: String, inFile filePath: String,
        atLine lineNumber: Int, expected: Bool
    ) {
        if description.contains("The relative standard deviation of the measurements is") {
            print("note: \(name): timing noise ignored (no timing assertions): \(description)")
            return
        }
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
    #endif
}
