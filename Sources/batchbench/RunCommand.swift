enum RunCommand {
    static func run(_ arguments: [String]) -> Int32 { printError("error: run is not built yet"); return 2 }
}
