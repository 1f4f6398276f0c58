// What `batchbench render` draws, and its command line.

/// What a scene picture shows and how large it is (`batchbench render --help`).
package struct RenderOptions: Equatable, Sendable {
    /// The picture's width in pixels.
    package var width: Double = 800
    /// The drawing's largest height in pixels, default 800 (the legend comes below it); nil: as the
    /// framed world's aspect ratio gives.
    package var height: Double? = 800
    /// Layer names (or `#index`) at each layer's centre.
    package var labels = true
    /// Clip rects, dashed.
    package var clips = true
    /// Hit-test points, joined to the label of the layer they hit.
    package var hits = true
    /// The scene's viewport, outlined.
    package var viewport = true
    /// The legend below the drawing.
    package var legend = true
    /// Each layer's frame rect, in its superlayer's space, mapped to the world.
    package var frames = false
    /// Hidden, wholly clipped and otherwise invisible layers as faint outlines (true) or
    /// left out (false).
    package var invisible = true
    /// The curves of a chart (`--timing-function`, `--spring`): when there are any, the
    /// picture is their chart instead of a scene.
    package var curves: [ChartCurve] = []
    /// Times (seconds of the scene's clock, not decreasing) at which to draw the
    /// presentation tree (`--time`, `--times`): one picture, or a film strip of several;
    /// empty: the model tree.
    package var times: [Double] = []

    /// Every option on.
    package init() {}

    /// The `--help` text of `batchbench render`.
    package static let usage = """
        usage: batchbench render SCENE.json [-o OUT.svg] [options]     (SCENE.json or - for stdin)
               batchbench render --timing-function F ... | --spring S ... [-o OUT.svg] [options]

        Draws the scene after its operations, in world space, as SVG (stdout without -o):
        each layer's bounds through its world transform, clipped at the eye plane (a
        perspective layer is the trapezoid it is), coloured by depth, in drawing order,
        with its name; clip rects dashed; the viewport outlined (or, without one, the
        union of the world rects is framed); each hit-test point joined to the layer it
        hit, or crossed out when it missed; a legend.

        With --timing-function or --spring (each may be repeated; one kind per chart) it
        draws a chart of the curves instead, sampled as an animation samples them:
        timing functions as progress over the time fraction with their control points,
        springs as position over seconds with a dashed line where each settles
        (settlingDuration); no scene file then, and of the options below only -o,
        --width, --height and --no-legend apply.

        options:
          -o, --output FILE   write the SVG to FILE (only when the scene is good)
          --time T            draw the presentation tree at T seconds (the scene's
                              animations sampled there; hit tests stay the model's)
          --times A,B,...     a film strip: the presentation tree at each time (not
                              decreasing), side by side, left to right
          --timing-function F a named function (default, linear, easeIn, easeOut,
                              easeInEaseOut) or x1,y1,x2,y2 (x1 and x2 in [0, 1])
          --spring S          MASS,STIFFNESS,DAMPING[,VELOCITY] (Core Animation's
                              defaults are 1,100,10,0)
          --width N           picture width in pixels (default 800)
          --height N          largest drawing height in pixels (default 800; a
                              chart's plot: 500)
          --frames            also draw each layer's frame, in its superlayer's space
          --no-labels         no layer names
          --no-clips          no clip rects
          --no-hits           no hit-test points
          --no-viewport       no viewport outline
          --no-legend         no legend
          --omit-invisible    leave out hidden, clipped and invisible layers (default:
                              faint outlines)

        Exit status: 0 on success; 2 for a malformed scene, unreadable input or a bad
        option, with one line 'error: <where>: <what>' on stderr and no output file.
        """

    /// Reads the options of `batchbench render`; the non-option arguments are returned
    /// in `files`, `-o`'s value in `output`. Throws a message for a bad option.
    static func parse(_ arguments: [String]) throws(RenderUsageError) -> (
        options: RenderOptions, files: [String], output: String?
    ) {
        var options = RenderOptions()
        var files: [String] = []
        var output: String?
        var heightGiven = false
        var index = 0
        func value(_ name: String) throws(RenderUsageError) -> String {
            guard index < arguments.count else { throw RenderUsageError(message: "\(name): expected a value") }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-o", "--output": output = try value(argument)
            case "--width": options.width = try pixels(try value(argument), argument)
            case "--height":
                options.height = try pixels(try value(argument), argument)
                heightGiven = true
            case "--frames": options.frames = true
            case "--no-labels": options.labels = false
            case "--no-clips": options.clips = false
            case "--no-hits": options.hits = false
            case "--no-viewport": options.viewport = false
            case "--no-legend": options.legend = false
            case "--omit-invisible": options.invisible = false
            case "--timing-function": options.curves.append(try ChartCurve.timingFunction(try value(argument)))
            case "--spring": options.curves.append(try ChartCurve.spring(try value(argument)))
            case "--time", "--times": options.times = try times(try value(argument), argument)
            default:
                if argument.hasPrefix("-") && argument != "-" {
                    throw RenderUsageError(message: "unknown option '\(argument)'; see batchbench render --help")
                }
                files.append(argument)
            }
        }
        if !options.curves.isEmpty && !heightGiven { options.height = 500 }
        let springs = options.curves.filter { if case .spring = $0 { true } else { false } }.count
        if springs > 0 && springs < options.curves.count {
            throw RenderUsageError(
                message: "a chart shows timing functions or springs, not both (their time axes differ)")
        }
        return (options, files, output)
    }

    /// A comma-separated list of finite times, not decreasing (`--time` takes one).
    private static func times(_ text: String, _ name: String) throws(RenderUsageError) -> [Double] {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        var times: [Double] = []
        for part in parts {
            guard let time = Double(part), time.isFinite else {
                throw RenderUsageError(message: "\(name): expected finite seconds, got '\(part)'")
            }
            if let last = times.last, time < last {
                throw RenderUsageError(message: "\(name): times must not decrease, got \(time) after \(last)")
            }
            times.append(time)
        }
        if name == "--time" && times.count != 1 {
            throw RenderUsageError(message: "--time: expected one time, got \(times.count); --times takes a list")
        }
        return times
    }

    private static func pixels(_ text: String, _ name: String) throws(RenderUsageError) -> Double {
        guard let value = Double(text), value.isFinite, value >= 100, value <= 100_000 else {
            throw RenderUsageError(message: "\(name): expected a number of pixels from 100 to 100000, got '\(text)'")
        }
        return value
    }
}

/// A bad command line for `render`: `message` follows `error: render: `.
struct RenderUsageError: Error {
    var message: String
}
