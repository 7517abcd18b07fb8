#include "dfg.h"

#include <string.h>

/* ---- DfgRow -------------------------------------------------------------------------------- */

G_DEFINE_FINAL_TYPE (DfgRow, dfg_row, G_TYPE_OBJECT)

static void
dfg_row_finalize (GObject *object)
{
  DfgRow *self = (DfgRow *) object;
  if (self->destroy != NULL && self->payload != NULL)
    self->destroy (self->payload);
  G_OBJECT_CLASS (dfg_row_parent_class)->finalize (object);
}

static void
dfg_row_class_init (DfgRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dfg_row_finalize;
}

static void
dfg_row_init (DfgRow *self)
{
  (void) self;
}

DfgRow *
dfg_row_new (void *payload, GDestroyNotify destroy, guint32 kind)
{
  DfgRow *row = g_object_new (dfg_row_get_type (), NULL);
  row->payload = payload;
  row->destroy = destroy;
  row->kind = kind;
  static guint64 next_uid = 0;
  row->uid = ++next_uid;  /* rows are made on the GTK thread only */
  return row;
}

/* ---- DfgListModel -------------------------------------------------------------------------- */

struct _DfgListModel
{
  GObject parent_instance;
  DfgRow **rows;       /* committed rows, one reference each */
  guint n_rows;
  guint capacity;
  /* inside a batch */
  gboolean in_batch;
  DfgRow **next;
  guint n_next;
  DfgRow **removed;
  guint n_removed;
  guint split_new;     /* GTK sees next[0 ..< split_new] ... */
  guint split_old;     /* ... followed by rows[split_old ..< n_rows] */
  guint64 emissions;
};

static void dfg_list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DfgListModel, dfg_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, dfg_list_model_iface_init))

guint
dfg_list_model_count (DfgListModel *self)
{
  if (self->in_batch)
    return self->split_new + (self->n_rows - self->split_old);
  return self->n_rows;
}

DfgRow *
dfg_list_model_peek (DfgListModel *self, guint position)
{
  if (self->in_batch)
    {
      if (position < self->split_new)
        return self->next[position];
      position = position - self->split_new + self->split_old;
    }
  return position < self->n_rows ? self->rows[position] : NULL;
}

static GType
dfg_list_model_get_item_type (GListModel *list)
{
  (void) list;
  return dfg_row_get_type ();
}

static guint
dfg_list_model_get_n_items (GListModel *list)
{
  return dfg_list_model_count ((DfgListModel *) list);
}

static gpointer
dfg_list_model_get_item (GListModel *list, guint position)
{
  DfgRow *row = dfg_list_model_peek ((DfgListModel *) list, position);
  return row != NULL ? g_object_ref (row) : NULL;
}

static void
dfg_list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = dfg_list_model_get_item_type;
  iface->get_n_items = dfg_list_model_get_n_items;
  iface->get_item = dfg_list_model_get_item;
}

static void
release_rows (DfgRow **rows, guint n)
{
  for (guint i = 0; i < n; i++)
    g_object_unref (rows[i]);
}

static void
dfg_list_model_finalize (GObject *object)
{
  DfgListModel *self = (DfgListModel *) object;
  g_assert (!self->in_batch);
  release_rows (self->rows, self->n_rows);
  g_free (self->rows);
  G_OBJECT_CLASS (dfg_list_model_parent_class)->finalize (object);
}

static void
dfg_list_model_class_init (DfgListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = dfg_list_model_finalize;
}

static void
dfg_list_model_init (DfgListModel *self)
{
  (void) self;
}

DfgListModel *
dfg_list_model_new (void)
{
  return g_object_new (dfg_list_model_get_type (), NULL);
}

DfgRow **
dfg_list_model_rows (DfgListModel *self, guint *n_rows)
{
  g_return_val_if_fail (!self->in_batch, NULL);
  *n_rows = self->n_rows;
  return self->rows;
}

guint64
dfg_list_model_emissions (DfgListModel *self)
{
  return self->emissions;
}

static void
emit (DfgListModel *self, guint position, guint removed, guint added)
{
  self->emissions++;
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

static void
reserve (DfgListModel *self, guint n)
{
  if (n <= self->capacity)
    return;
  guint capacity = self->capacity < 16 ? 16 : self->capacity;
  while (capacity < n)
    capacity *= 2;
  self->rows = g_renew (DfgRow *, self->rows, capacity);
  self->capacity = capacity;
}

void
dfg_list_model_reset (DfgListModel *self, DfgRow **rows, guint n)
{
  g_return_if_fail (!self->in_batch);
  DfgRow **old = self->rows;
  guint n_old = self->n_rows;
  self->rows = g_new (DfgRow *, n > 0 ? n : 1);
  self->capacity = n > 0 ? n : 1;
  if (n > 0)
    memcpy (self->rows, rows, sizeof (DfgRow *) * n);
  self->n_rows = n;
  if (n_old > 0 || n > 0)
    emit (self, 0, n_old, n);
  release_rows (old, n_old);
  g_free (old);
}

void
dfg_list_model_begin (DfgListModel *self, DfgRow **next, guint n_next, DfgRow **removed, guint n_removed)
{
  g_return_if_fail (!self->in_batch);
  self->in_batch = TRUE;
  self->next = next;
  self->n_next = n_next;
  self->removed = g_new (DfgRow *, n_removed > 0 ? n_removed : 1);
  if (n_removed > 0)
    memcpy (self->removed, removed, sizeof (DfgRow *) * n_removed);
  self->n_removed = n_removed;
  self->split_new = 0;
  self->split_old = 0;
}

void
dfg_list_model_emit (DfgListModel *self, guint old_start, guint old_end, guint new_start, guint new_end)
{
  g_return_if_fail (self->in_batch);
  g_return_if_fail (old_start >= self->split_old && old_end >= old_start && old_end <= self->n_rows);
  g_return_if_fail (new_start >= self->split_new && new_end >= new_start && new_end <= self->n_next);
  g_return_if_fail (old_start - self->split_old == new_start - self->split_new);
  self->split_old = old_end;
  self->split_new = new_end;
  emit (self, new_start, old_end - old_start, new_end - new_start);
}

void
dfg_list_model_end (DfgListModel *self)
{
  g_return_if_fail (self->in_batch);
  g_return_if_fail (self->n_rows - self->split_old == self->n_next - self->split_new);
  self->in_batch = FALSE;
  g_free (self->rows);
  self->rows = self->next;
  self->n_rows = self->n_next;
  self->capacity = self->n_next > 0 ? self->n_next : 1;
  self->next = NULL;
  self->n_next = 0;
  release_rows (self->removed, self->n_removed);
  g_free (self->removed);
  self->removed = NULL;
  self->n_removed = 0;
}

void
dfg_list_model_splice (DfgListModel *self, guint position, guint n_remove, DfgRow **add, guint n_add)
{
  g_return_if_fail (!self->in_batch);
  g_return_if_fail (position <= self->n_rows && n_remove <= self->n_rows - position);
  DfgRow **gone = g_new (DfgRow *, n_remove > 0 ? n_remove : 1);
  if (n_remove > 0)
    memcpy (gone, self->rows + position, sizeof (DfgRow *) * n_remove);
  guint n_new = self->n_rows - n_remove + n_add;
  reserve (self, n_new);
  memmove (self->rows + position + n_add, self->rows + position + n_remove,
           sizeof (DfgRow *) * (self->n_rows - position - n_remove));
  if (n_add > 0)
    memcpy (self->rows + position, add, sizeof (DfgRow *) * n_add);
  self->n_rows = n_new;
  emit (self, position, n_remove, n_add);
  release_rows (gone, n_remove);
  g_free (gone);
}

/* ---- the factory ------------------------------------------------------------------------------ */

typedef struct
{
  DfgListItemCallback fn;
  void *user_data;
} Callback;

static void
on_factory_signal (GtkSignalListItemFactory *factory, GObject *item, gpointer data)
{
  (void) factory;
  Callback *callback = data;
  callback->fn (GTK_LIST_ITEM (item), callback->user_data);
}

static void
connect_callback (GtkListItemFactory *factory, const char *signal, DfgListItemCallback fn, void *user_data)
{
  if (fn == NULL)
    return;
  Callback *callback = g_new (Callback, 1);
  callback->fn = fn;
  callback->user_data = user_data;
  g_signal_connect_data (factory, signal, G_CALLBACK (on_factory_signal), callback,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
}

GtkListItemFactory *
dfg_factory_new (DfgListItemCallback setup, DfgListItemCallback bind, DfgListItemCallback unbind,
                 DfgListItemCallback teardown, void *user_data)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  connect_callback (factory, "setup", setup, user_data);
  connect_callback (factory, "bind", bind, user_data);
  connect_callback (factory, "unbind", unbind, user_data);
  connect_callback (factory, "teardown", teardown, user_data);
  return factory;
}

/* ---- helpers ------------------------------------------------------------------------------------ */

typedef struct
{
  void (*fn) (void *);
  void *data;
} Job;

static gboolean
run_job (gpointer data)
{
  Job *job = data;
  job->fn (job->data);
  return G_SOURCE_REMOVE;
}

void
dfg_invoke_later (void (*fn) (void *), void *data)
{
  Job *job = g_new (Job, 1);
  job->fn = fn;
  job->data = data;
  g_idle_add_full (G_PRIORITY_DEFAULT, run_job, job, g_free);
}

gulong
dfg_connect (gpointer instance, const char *signal, void (*fn) (gpointer, gpointer), gpointer user_data)
{
  return g_signal_connect (instance, signal, G_CALLBACK (fn), user_data);
}

typedef struct
{
  void (*fn) (guint, guint, guint, gpointer);
  gpointer user_data;
} ItemsChangedAdapter;

static void
on_items_changed (GListModel *model, guint position, guint removed, guint added, gpointer data)
{
  (void) model;
  ItemsChangedAdapter *adapter = data;
  adapter->fn (position, removed, added, adapter->user_data);
}

gulong
dfg_connect_items_changed (GListModel *model, void (*fn) (guint, guint, guint, gpointer), gpointer user_data)
{
  ItemsChangedAdapter *adapter = g_new (ItemsChangedAdapter, 1);
  adapter->fn = fn;
  adapter->user_data = user_data;
  return g_signal_connect_data (model, "items-changed", G_CALLBACK (on_items_changed), adapter,
                                (GClosureNotify) (void (*) (void)) g_free, 0);
}

guint
dfg_timeout_add (guint interval_ms, gboolean (*fn) (gpointer), gpointer user_data)
{
  return g_timeout_add (interval_ms, fn, user_data);
}

gulong
dfg_connect_changed (gpointer editable, void (*fn) (gpointer, gpointer), gpointer user_data)
{
  return g_signal_connect (editable, "changed", G_CALLBACK (fn), user_data);
}


gboolean
dfg_save_widget_png (GdkPaintable *paintable, GtkWidget *widget, const char *path)
{
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GtkNative *native = gtk_widget_get_native (widget);
  if (width <= 0 || height <= 0 || native == NULL)
    return FALSE;
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  GskRenderNode *node = gtk_snapshot_free_to_node (snapshot);
  gboolean saved = FALSE;
  if (node != NULL)
    {
      GdkTexture *texture = gsk_renderer_render_texture (gtk_native_get_renderer (native), node,
                                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
      saved = gdk_texture_save_to_png (texture, path);
      g_object_unref (texture);
      gsk_render_node_unref (node);
    }
  return saved;
}

/* ---- accessibility -------------------------------------------------------------------------- */

void
dfg_accessible_set_label (GtkWidget *widget, const char *label)
{
  if (label == NULL)
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
  else
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void
dfg_accessible_set_expanded (GtkWidget *widget, int expanded)
{
  if (expanded < 0)
    gtk_accessible_reset_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_EXPANDED);
  else
    gtk_accessible_update_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_EXPANDED, expanded != 0, -1);
}

void
dfg_accessible_set_level (GtkWidget *widget, int level)
{
  if (level <= 0)
    gtk_accessible_reset_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LEVEL);
  else
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LEVEL, level, -1);
}

char *
dfg_accessible_check_label (GtkWidget *widget, const char *label)
{
  if (!gtk_test_accessible_has_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL))
    return g_strdup ("no accessible label");
  return gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
}

char *
dfg_accessible_check_expanded (GtkWidget *widget, int expanded)
{
  gboolean has = gtk_test_accessible_has_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_EXPANDED);
  if (expanded < 0)
    return has ? g_strdup ("expanded state set on a row that cannot expand") : NULL;
  if (!has)
    return g_strdup ("no expanded state");
  return gtk_test_accessible_check_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_EXPANDED, expanded != 0);
}

/* ---- keyboard ---------------------------------------------------------------------------------- */

typedef struct
{
  gboolean (*fn) (GtkWidget *, gpointer);
  gpointer user_data;
} ShortcutCallback;

static gboolean
run_shortcut (GtkWidget *widget, GVariant *args, gpointer data)
{
  (void) args;
  ShortcutCallback *callback = data;
  return callback->fn (widget, callback->user_data);
}

void
dfg_add_shortcut (GtkWidget *widget, const char *accelerator, gboolean (*fn) (GtkWidget *, gpointer), gpointer user_data)
{
  ShortcutCallback *callback = g_new (ShortcutCallback, 1);
  callback->fn = fn;
  callback->user_data = user_data;
  GtkEventController *controller = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_BUBBLE);
  GtkShortcutAction *action = gtk_callback_action_new (run_shortcut, callback, g_free);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string (accelerator), action));
  gtk_widget_add_controller (widget, controller);
}

gboolean
dfg_activate_key_binding (GtkWidget *widget, guint keyval, GdkModifierType modifiers)
{
  GListModel *controllers = gtk_widget_observe_controllers (widget);
  gboolean ran = FALSE;
  for (guint i = 0; !ran && i < g_list_model_get_n_items (controllers); i++)
    {
      GObject *controller = g_list_model_get_item (controllers, i);
      if (GTK_IS_SHORTCUT_CONTROLLER (controller))
        {
          GListModel *shortcuts = G_LIST_MODEL (controller);
          for (guint j = 0; !ran && j < g_list_model_get_n_items (shortcuts); j++)
            {
              GtkShortcut *shortcut = g_list_model_get_item (shortcuts, j);
              GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);
              if (GTK_IS_KEYVAL_TRIGGER (trigger)
                  && gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == keyval
                  && gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) == modifiers)
                ran = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), GTK_SHORTCUT_ACTION_EXCLUSIVE,
                                                    widget, gtk_shortcut_get_arguments (shortcut));
              g_object_unref (shortcut);
            }
        }
      g_object_unref (controller);
    }
  g_object_unref (controllers);
  return ran;
}

/* ---- drag and drop of rows ---------------------------------------------------------------------- */

typedef struct
{
  int (*prepare) (GtkWidget *, gpointer);
  gboolean (*drop) (GtkWidget *, guint, double, gpointer);
  gpointer user_data;
} RowDrag;

static GdkContentProvider *
on_drag_prepare (GtkDragSource *source, double x, double y, gpointer data)
{
  (void) x;
  (void) y;
  RowDrag *drag = data;
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (source));
  int position = drag->prepare (widget, drag->user_data);
  return position < 0 ? NULL : gdk_content_provider_new_typed (G_TYPE_UINT, (guint) position);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, gpointer data)
{
  (void) x;
  RowDrag *drag = data;
  GtkWidget *widget = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (target));
  return G_VALUE_HOLDS_UINT (value) && drag->drop (widget, g_value_get_uint (value), y, drag->user_data);
}

void
dfg_add_row_drag (GtkWidget *widget, int (*prepare) (GtkWidget *, gpointer),
                  gboolean (*drop) (GtkWidget *, guint, double, gpointer), gpointer user_data)
{
  RowDrag *drag = g_new (RowDrag, 1);
  drag->prepare = prepare;
  drag->drop = drop;
  drag->user_data = user_data;
  /* Both controllers use it; the widget owns it, and outlives them. */
  g_object_set_data_full (G_OBJECT (widget), "dfg-row-drag", drag, g_free);
  GtkDragSource *source = gtk_drag_source_new ();
  gtk_drag_source_set_actions (source, GDK_ACTION_MOVE);
  g_signal_connect (source, "prepare", G_CALLBACK (on_drag_prepare), drag);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (source));
  GtkDropTarget *target = gtk_drop_target_new (G_TYPE_UINT, GDK_ACTION_MOVE);
  g_signal_connect (target, "drop", G_CALLBACK (on_drop), drag);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (target));
}

/* The first controller of `type` on `widget`, not referenced, or NULL. */
static GtkEventController *
find_controller (GtkWidget *widget, GType type)
{
  GListModel *controllers = gtk_widget_observe_controllers (widget);
  GtkEventController *found = NULL;
  for (guint i = 0; found == NULL && i < g_list_model_get_n_items (controllers); i++)
    {
      GObject *controller = g_list_model_get_item (controllers, i);
      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        found = GTK_EVENT_CONTROLLER (controller);
      g_object_unref (controller);
    }
  g_object_unref (controllers);
  return found;
}

int
dfg_emit_drag_prepare (GtkWidget *widget)
{
  GtkEventController *source = find_controller (widget, GTK_TYPE_DRAG_SOURCE);
  if (source == NULL)
    return -1;
  GdkContentProvider *content = NULL;
  g_signal_emit_by_name (source, "prepare", 0.0, 0.0, &content);
  if (content == NULL)
    return -1;
  GValue value = G_VALUE_INIT;
  g_value_init (&value, G_TYPE_UINT);
  int position = gdk_content_provider_get_value (content, &value, NULL) ? (int) g_value_get_uint (&value) : -1;
  g_value_unset (&value);
  g_object_unref (content);
  return position;
}

gboolean
dfg_emit_drop (GtkWidget *widget, guint from, double y)
{
  GtkEventController *target = find_controller (widget, GTK_TYPE_DROP_TARGET);
  if (target == NULL)
    return FALSE;
  GValue value = G_VALUE_INIT;
  g_value_init (&value, G_TYPE_UINT);
  g_value_set_uint (&value, from);
  gboolean taken = FALSE;
  g_signal_emit_by_name (target, "drop", &value, 0.0, y, &taken);
  g_value_unset (&value);
  return taken;
}
