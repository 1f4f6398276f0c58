// libFuzzer target: random bytes → `Scene(json:)` must throw a `SceneError` or succeed,
// never trap; a decoded scene must evaluate to the same output under every backend and
// thread count 1...4 (or fail with the same error under all of them).
//
// Written against the scene API (`Scene(json:)`, `evaluate(options:)`,
// `SceneEvaluation.jsonText()`), plus the testing SPI's `_invariantViolations()` on the
// decoded and the evaluated store.
//
// Thread counts of one backend must give identical text. Across backends the frames are
// bit-identical by contract, but world transforms only agree to 1e-12 relative
// (GEOMETRY.md section 1), so numbers are compared token by token with that tolerance
// when the texts differ.

@_spi(Testing) import BatchGeometry
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let scene: Scene
    do {
        scene = try Scene(json: bytes)
    } catch {  // a SceneError: `init(json:)` throws nothing else (typed throws)
        checkErrorMessage(error)
        return 0
    }
    checkInvariants(scene.store, "the decoded scene's store")
    if let evaluation = try? scene.evaluate(options: .serial(.scalar)) {
        checkInvariants(evaluation.store, "the evaluated scene's store")
    }
    var reference: Result<String, SceneError>?
    for backend in Backend.allCases {
        var first: Result<String, SceneError>?
        for threads in 1...4 {
            let outcome: Result<String, SceneError>
            do {
                outcome = .success(
                    try scene.evaluate(options: KernelOptions(backend: backend, threads: threads)).jsonText())
            } catch {
                outcome = .failure(error)
            }
            if let first {
                if outcome != first { fuzzFailure("\(backend): \(threads) threads differ from 1 thread") }
            } else {
                first = outcome
            }
        }
        guard let first else { continue }
        if let reference {
            switch (reference, first) {
            case (.success(let expected), .success(let text)):
                if text != expected && !sameJSONWithinTolerance(text, expected) {
                    fuzzFailure("\(backend) output differs from scalar beyond 1e-12 relative")
                }
            case (.failure(let expected), .failure(let error)):
                if expected != error { fuzzFailure("\(backend) fails with \(error), scalar with \(expected)") }
            default:
                fuzzFailure("\(backend) and scalar disagree on whether the scene evaluates")
            }
        } else {
            reference = first
        }
    }
    if case .failure(let error)? = reference { checkErrorMessage(error) }
    return 0
}

/// An error is one line that names a place: `path: message`.
func checkErrorMessage(_ error: SceneError) {
    let text = error.description
    if text.contains("\n") { fuzzFailure("multi-line error: \(text)") }
    if error.message.isEmpty { fuzzFailure("error without a message at \(error.path)") }
    if text != "\(error.path): \(error.message)" { fuzzFailure("description is not \"path: message\": \(text)") }
}

/// Same JSON structure and strings; numbers equal within 1e-12 relative (or both the
/// same non-finite string).
func sameJSONWithinTolerance(_ lhs: String, _ rhs: String) -> Bool {
    let left = jsonTokens(lhs)
    let right = jsonTokens(rhs)
    guard left.count == right.count else { return false }
    for (p, q) in zip(left, right) where p != q {
        guard let x = Double(p), let y = Double(q) else { return false }
        let scale = Swift.max(1, Swift.max(Swift.abs(x), Swift.abs(y)))
        if !(Swift.abs(x - y) <= 1e-12 * 64 * scale) { return false }
    }
    return true
}

/// Splits JSON text into punctuation, strings and bare words (numbers, literals).
func jsonTokens(_ text: String) -> [Substring] {
    var tokens: [Substring] = []
    var index = text.startIndex
    while index < text.endIndex {
        let character = text[index]
        if character == " " || character == "\n" || character == "\t" || character == "\r" {
            index = text.index(after: index)
        } else if "[]{},:".contains(character) {
            tokens.append(text[index...index])
            index = text.index(after: index)
        } else if character == "\"" {
            var end = text.index(after: index)
            while end < text.endIndex && text[end] != "\"" {
                if text[end] == "\\" { end = text.index(after: end) }
                if end < text.endIndex { end = text.index(after: end) }
            }
            if end < text.endIndex { end = text.index(after: end) }
            tokens.append(text[index..<end])
            index = end
        } else {
            var end = index
            while end < text.endIndex && !" \n\t\r[]{},:\"".contains(text[end]) { end = text.index(after: end) }
            tokens.append(text[index..<end])
            index = end
        }
    }
    return tokens
}

/// Every counter, cached flag and cache of `store` is what a fresh build gives.
private func checkInvariants(_ store: borrowing LayerStore, _ what: String) {
    let violations = store._invariantViolations()
    if !violations.isEmpty { fuzzFailure("\(what): \(violations.joined(separator: "; "))") }
}
