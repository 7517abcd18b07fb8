/* DiffableGTK's GObject parts: the row object, the list model and the list item factory's
 * trampolines. Swift drives them; everything here runs on the GTK main context. */
#ifndef DFG_H
#define DFG_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* ---- DfgRow: one row of the list (an item or a section header) ---------------------------- */

/* A lightweight GObject carrying an opaque payload (the Swift side's row content). Swift reads
 * and writes the fields directly. */
typedef struct _DfgRow {
    GObject parent_instance;
    void *payload;               /* owned: released with `destroy` when the row is finalized */
    GDestroyNotify destroy;
    guint32 kind;                /* 0: item, 1: section header */
    guint32 version;             /* bumped when the row's content changes in place */
    GtkListItem *bound;          /* the list item showing the row now, or NULL */
    guint64 uid;                 /* unique per row object made in this process */
} DfgRow;

typedef struct _DfgRowClass { GObjectClass parent_class; } DfgRowClass;

GType dfg_row_get_type (void);

/* A new row (reference count 1) owning `payload`. O(1). */
DfgRow *dfg_row_new (void *payload, GDestroyNotify destroy, guint32 kind);

/* ---- DfgListModel: a GListModel whose changes the caller emits -------------------------- */

typedef struct _DfgListModel DfgListModel;
typedef struct _DfgListModelClass { GObjectClass parent_class; } DfgListModelClass;

GType dfg_list_model_get_type (void);

/* An empty model. O(1). */
DfgListModel *dfg_list_model_new (void);

/* The number of rows as GTK sees it now (inside a batch: the new prefix plus the old rest). O(1). */
guint dfg_list_model_count (DfgListModel *self);

/* The row at `position` as GTK sees it now, not referenced; NULL when out of range. O(1). */
DfgRow *dfg_list_model_peek (DfgListModel *self, guint position);

/* The committed rows (outside a batch), not referenced. O(1). */
DfgRow **dfg_list_model_rows (DfgListModel *self, guint *n_rows);

/* Replaces every row with `rows` (the model takes the callers' references) and emits one
 * items-changed (0, old count, n). Old rows are released. O(old + n). */
void dfg_list_model_reset (DfgListModel *self, DfgRow **rows, guint n);

/* A batch in three calls:
 *   begin: `next` is the whole new list, a g_malloc'd array the model takes; every row in it that is new passes its
 *          reference to the model, every row kept keeps the one the model already holds;
 *          `removed` lists the rows leaving (the model drops their references at `end`).
 *   emit:  GTK now sees next[0 ..< new_end] followed by old[old_end ..<]; emits
 *          items-changed (new_start, old_end - old_start, new_end - new_start). Calls must go
 *          front to back, and old[prev_old_end ..< old_start] must equal
 *          next[prev_new_end ..< new_start] (rows that did not change).
 *   end:   the new list is committed (every range must have been emitted).
 * O(removed) for the batch, plus O(1) per emission, plus what GTK does for each. */
void dfg_list_model_begin (DfgListModel *self, DfgRow **next, guint n_next, DfgRow **removed, guint n_removed);
void dfg_list_model_emit (DfgListModel *self, guint old_start, guint old_end, guint new_start, guint new_end);
void dfg_list_model_end (DfgListModel *self);

/* One plain splice (outside a batch): removes `n_remove` rows at `position`, inserts `add`
 * (references passed to the model) and emits one items-changed. O(rows after position). */
void dfg_list_model_splice (DfgListModel *self, guint position, guint n_remove, DfgRow **add, guint n_add);

/* The number of items-changed signals emitted so far. O(1). */
guint64 dfg_list_model_emissions (DfgListModel *self);

/* ---- the list item factory ------------------------------------------------------------- */

typedef void (*DfgListItemCallback) (GtkListItem *item, void *user_data);

/* A GtkSignalListItemFactory whose setup, bind, unbind and teardown call the given functions
 * with `user_data` (not owned). O(1). */
GtkListItemFactory *dfg_factory_new (DfgListItemCallback setup, DfgListItemCallback bind,
                                     DfgListItemCallback unbind, DfgListItemCallback teardown,
                                     void *user_data);

/* ---- helpers for what Swift cannot call (macros, varargs) -------------------------------- */

/* g_idle_add_full at G_PRIORITY_DEFAULT: runs `fn(data)` once on the default main context. */
void dfg_invoke_later (void (*fn) (void *), void *data);

/* Connects `fn(widget-or-object, user_data)` to a signal without extra arguments. */
gulong dfg_connect (gpointer instance, const char *signal, void (*fn) (gpointer, gpointer), gpointer user_data);

/* Records items-changed of any GListModel into `fn(position, removed, added, user_data)`. */
gulong dfg_connect_items_changed (GListModel *model, void (*fn) (guint, guint, guint, gpointer), gpointer user_data);

/* Calls `fn(user_data)` every `interval_ms` on the default main context until it returns FALSE. */
guint dfg_timeout_add (guint interval_ms, gboolean (*fn) (gpointer), gpointer user_data);

/* Connects a GtkEditable's "changed". */
gulong dfg_connect_changed (gpointer editable, void (*fn) (gpointer, gpointer), gpointer user_data);

/* Writes `paintable` (a gtk_widget_paintable_new of `widget`, made before its last frames were
 * drawn: it shows what the last frame drew) to a PNG file at `path`, rendered by `widget`'s
 * window's renderer. Returns whether the file was written. O(widget's pixels). */
gboolean dfg_save_widget_png (GdkPaintable *paintable, GtkWidget *widget, const char *path);

/* ---- accessibility (GtkAccessible's setters are varargs) --------------------------------------- */

/* Sets the accessible label of `widget` (NULL: resets it). O(1). */
void dfg_accessible_set_label (GtkWidget *widget, const char *label);

/* Sets GTK_ACCESSIBLE_STATE_EXPANDED: 1 expanded, 0 collapsed, -1 undefined (not expandable). O(1). */
void dfg_accessible_set_expanded (GtkWidget *widget, int expanded);

/* Sets GTK_ACCESSIBLE_PROPERTY_LEVEL (1 for a root row of an outline; 0 resets it). O(1). */
void dfg_accessible_set_level (GtkWidget *widget, int level);

/* For tests: NULL when `widget`'s accessible label is `label`, else a message (free with g_free). */
char *dfg_accessible_check_label (GtkWidget *widget, const char *label);

/* For tests: NULL when `widget`'s expanded state is `expanded` (as dfg_accessible_set_expanded
 * takes it), else a message (free with g_free). */
char *dfg_accessible_check_expanded (GtkWidget *widget, int expanded);

/* ---- keyboard ------------------------------------------------------------------------------ */

/* Adds to `widget` a shortcut: `accelerator` (gtk_accelerator_parse syntax) calls
 * `fn(widget, user_data)`, which returns whether it handled the key. O(1). */
void dfg_add_shortcut (GtkWidget *widget, const char *accelerator, gboolean (*fn) (GtkWidget *, gpointer), gpointer user_data);

/* Runs the key binding `widget` (or its class) has for `keyval` with `modifiers`, as a key press
 * reaching it would, without synthesizing an event (GTK 4 has no public way to inject one).
 * Returns whether a binding was found and ran. O(bindings). */
gboolean dfg_activate_key_binding (GtkWidget *widget, guint keyval, GdkModifierType modifiers);

/* ---- drag and drop of rows ------------------------------------------------------------------- */

/* Makes `widget` (a row's widget) a drag source and a drop target for rows of its list.
 * `prepare(widget, user_data)` returns the model position to drag, or -1 to refuse the drag;
 * `drop(widget, from, y, user_data)` gets the dragged row's position and the drop's height in
 * `widget` (0 at its top), and returns whether it took the drop. O(1). */
void dfg_add_row_drag (GtkWidget *widget, int (*prepare) (GtkWidget *, gpointer),
                       gboolean (*drop) (GtkWidget *, guint, double, gpointer), gpointer user_data);

/* For tests (GTK 4 cannot inject a pointer drag): emits the "prepare" signal of `widget`'s drag
 * source as a drag start at its top left would; returns the position it would carry, or -1. */
int dfg_emit_drag_prepare (GtkWidget *widget);

/* For tests: emits the "drop" signal of `widget`'s drop target with position `from` at height
 * `y`, as a drop would; returns what the handler returned. */
gboolean dfg_emit_drop (GtkWidget *widget, guint from, double y);

G_END_DECLS

#endif

