import CDiffableGTK
import CGtk4
import Diffable
import DiffableGTK
import DiffableTools
import Foundation

/// Pass/fail counts and the first failures' messages.
final class Results {
    var passed = 0
    var failed = 0
    var notes: [String] = []

    func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if condition {
            passed += 1
        } else {
            failed += 1
            if failed <= 20 { print("FAIL: \(message())") }
        }
    }
}

/// The tests' seeded generator: DiffableTools' SplitMix64, seeded as this runner always was
/// (the seed plus SplitMix64's increment), so its sequences are the ones the tests were written on.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    init(testSeed seed: UInt64) { self.init(seed: seed &+ 0x9E37_79B9_7F4A_7C15) }
}

/// A flag set from a completion handler (which may run on any thread).
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func raise() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// A window showing a list view in a scrolled window of fixed size, presented.
final class TestWindow {
    let window: GtkWidgetPointer
    init(showing list: GtkWidgetPointer, width: Int32 = 360, height: Int32 = 480) {
        window = gtk_window_new()
        gtk_window_set_default_size(gtkCast(window, to: GtkWindow.self), width, height)
        let scrolled = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), list)
        gtk_window_set_child(gtkCast(window, to: GtkWindow.self), scrolled)
        gtk_window_present(gtkCast(window, to: GtkWindow.self))
    }
    func close() { gtk_window_destroy(gtkCast(window, to: GtkWindow.self)) }
}

/// A label row widget (items show their identifier).
func makeLabel() -> GtkWidgetPointer {
    let label = gtk_label_new(nil)!
    gtk_label_set_xalign(OpaquePointer(label), 0)
    return label
}

func setLabel(_ widget: GtkWidgetPointer, _ text: String) { gtk_label_set_text(OpaquePointer(widget), text) }

/// Lets GTK lay out and bind: iterates the main context for `seconds` (frames are clocked).
func settle(_ seconds: Double = 0.05) {
    let deadline = Date().addingTimeInterval(seconds)
    GTKMainContext.iterate(until: { Date() > deadline }, timeout: seconds + 1)
    GTKMainContext.drain()
}

/// Replays a model's items-changed signals on an array of its own (the row objects' addresses),
/// taking each added row from the model at signal time.
final class ModelReplica {
    var rows: [UnsafeMutableRawPointer] = []
    var signals = 0
    let model: OpaquePointer

    init(_ model: OpaquePointer) {
        self.model = model
        let count = g_list_model_get_n_items(model)
        rows = (0..<count).map { ModelReplica.item(model, $0) }
        dfg_connect_items_changed(model, { position, removed, added, user in
            let me = Unmanaged<ModelReplica>.fromOpaque(user!).takeUnretainedValue()
            me.signals += 1
            let start = Int(position)
            precondition(start + Int(removed) <= me.rows.count, "items-changed removes beyond the end")
            let addedRows = (position..<(position + added)).map { ModelReplica.item(me.model, $0) }
            me.rows.replaceSubrange(start..<(start + Int(removed)), with: addedRows)
            precondition(me.rows.count == Int(g_list_model_get_n_items(me.model)), "n_items disagrees with the signal")
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func item(_ model: OpaquePointer, _ position: guint) -> UnsafeMutableRawPointer {
        let object = g_list_model_get_item(model, position)!
        g_object_unref(object)  // the model keeps it; only the address is compared
        return object
    }

    /// The model's rows now, by address.
    var modelRows: [UnsafeMutableRawPointer] {
        (0..<g_list_model_get_n_items(model)).map { ModelReplica.item(model, $0) }
    }
}
