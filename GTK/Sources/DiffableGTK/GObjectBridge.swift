import CDiffableGTK
import CGtk4

/// A GTK widget, as GTK's C API hands it out.
public typealias GtkWidgetPointer = UnsafeMutablePointer<GtkWidget>

/// A row object of the model (an item or a section header).
typealias RowPointer = UnsafeMutablePointer<DfgRow>

/// A widget pointer as a pointer to one of its GObject types (`GtkWindow`, `GtkBox`, …), for GTK
/// calls that take the subtype; GTK's opaque types take `OpaquePointer(widget)` instead.
/// - Complexity: O(1).
@inline(__always) public func gtkCast<T>(_ widget: GtkWidgetPointer, to type: T.Type) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(widget).assumingMemoryBound(to: T.self)
}

/// Casts between GObject pointers of any declared type. - Complexity: O(1).
@inline(__always) func cast<T>(_ pointer: OpaquePointer?) -> UnsafeMutablePointer<T>? {
    pointer.map { UnsafeMutablePointer<T>($0) }
}

@inline(__always) func opaque<T>(_ pointer: UnsafeMutablePointer<T>) -> OpaquePointer { OpaquePointer(pointer) }

@inline(__always) func raw<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutableRawPointer {
    UnsafeMutableRawPointer(pointer)
}

@inline(__always) func raw(_ pointer: OpaquePointer) -> UnsafeMutableRawPointer { UnsafeMutableRawPointer(pointer) }

/// What a row object carries: the content its widget shows. Boxed so the row's GObject can
/// own it (released when the row is finalized).
final class RowPayload {
    var content: Any
    init(_ content: Any) { self.content = content }
}

/// Releases a payload box when its row is finalized.
let releasePayload: GDestroyNotify = { pointer in
    Unmanaged<RowPayload>.fromOpaque(pointer!).release()
}

/// A new row object (reference count 1) carrying `content`. - Complexity: O(1).
func makeRow(_ content: Any, header: Bool) -> RowPointer {
    let payload = Unmanaged.passRetained(RowPayload(content)).toOpaque()
    let row = dfg_row_new(payload, releasePayload, header ? 1 : 0)!
    return row
}

/// The content a row object carries. - Complexity: O(1).
func content(of row: RowPointer) -> Any {
    Unmanaged<RowPayload>.fromOpaque(row.pointee.payload).takeUnretainedValue().content
}

func setContent(_ content: Any, of row: RowPointer) {
    Unmanaged<RowPayload>.fromOpaque(row.pointee.payload).takeUnretainedValue().content = content
}

/// Hands an array of rows to C as `DfgRow **` and its count. - Complexity: O(1).
func withCArray<R>(_ rows: inout [RowPointer], _ body: (UnsafeMutablePointer<RowPointer?>?, guint) -> R) -> R {
    rows.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return body(nil, 0) }
        return base.withMemoryRebound(to: RowPointer?.self, capacity: buffer.count) { body($0, guint(buffer.count)) }
    }
}

/// A GObject pointer of any GTK type, as GObject's API takes it. - Complexity: O(1).
@inline(__always) func gobject(_ pointer: OpaquePointer) -> UnsafeMutablePointer<GObject> { UnsafeMutablePointer(pointer) }
@inline(__always) func gobject<T>(_ pointer: UnsafeMutablePointer<T>) -> UnsafeMutablePointer<GObject> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self)
}
