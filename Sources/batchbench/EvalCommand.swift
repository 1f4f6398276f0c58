enum EvalCommand {
    static func run(_ arguments: [String]) -> Int32 { printError("error: eval is not built yet"); return 2 }
}
