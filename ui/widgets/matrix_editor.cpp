#include "ui/widgets/matrix_editor.h"
#include "ui/widgets/matrix_editor_cells.h"

#include "ui/widgets/flow_layout.h"

#include "core/error.h"
#include "core/matrix_io.h"
#include "core/model_weights.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>

namespace attn::ui {

using core::Matrix;

namespace {

QString plainTitle(const QString& title)
{
    return title.isEmpty() ? QStringLiteral("the matrix") : title;
}

// "W^q · head 1" -> "W<sup>q</sup> · head 1"; also _x and ^{...}.
QString richTitle(const QString& title)
{
    static const QRegularExpression script(
        QStringLiteral(R"(([\^_])(?:\{([^}]*)\}|([\p{L}\p{N}]+)))"));
    QString html = title.toHtmlEscaped();
    QString out;
    qsizetype last = 0;
    for (auto it = script.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += html.mid(last, m.capturedStart() - last);
        const QString tag =
            m.captured(1) == QLatin1String("^") ? QStringLiteral("sup") : QStringLiteral("sub");
        const QString body = m.captured(2).isEmpty() ? m.captured(3) : m.captured(2);
        out += QStringLiteral("<%1>%2</%1>").arg(tag, body);
        last = m.capturedEnd();
    }
    return out + html.mid(last);
}

QString shapeText(const Matrix& m)
{
    return QStringLiteral("%1 \u00d7 %2").arg(m.rows()).arg(m.cols());
}

QString boundText()
{
    return QStringLiteral("|v| \u2264 1e6");
}

// The first non-finite or out-of-range value, as a message; empty when all are fine.
QString badValue(const Matrix& m)
{
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) {
            const float v = m(i, j);
            if (!std::isfinite(v) || std::abs(v) > MatrixEditor::kMaxAbsValue)
                return QStringLiteral("row %1, column %2 is %3; values must be finite, with %4")
                    .arg(i)
                    .arg(j)
                    .arg(std::isnan(v) ? QStringLiteral("NaN") : QString::number(double(v), 'g', 4))
                    .arg(boundText());
        }
    return {};
}

QToolButton* toolButton(QAction* action)
{
    auto* button = new QToolButton;
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    button->setAutoRaise(false);
    return button;
}

} // namespace

MatrixEditor::MatrixEditor(QWidget* parent) : QWidget(parent)
{
    m_model = new MatrixEditorModel(this);

    m_randomize = new QAction(tr("Randomize"), this);
    m_identity = new QAction(tr("Identity"), this);
    m_identity->setToolTip(tr("Ones on the diagonal, zeros elsewhere"));
    m_zero = new QAction(tr("Zero"), this);
    m_zero->setToolTip(tr("Every value 0"));
    m_transpose = new QAction(tr("Transpose"), this);
    m_scale = new QAction(tr("Scale\u2026"), this);
    m_scale->setToolTip(tr("Multiply every value by a factor"));
    m_import = new QAction(tr("Import\u2026"), this);
    m_import->setToolTip(
        tr("Read the values from a .npy, .csv or .safetensors file of the same shape"));
    m_export = new QAction(tr("Export\u2026"), this);
    m_export->setToolTip(tr("Write the values to a .npy, .csv or .safetensors file"));
    connect(m_randomize, &QAction::triggered, this, &MatrixEditor::randomize);
    connect(m_identity, &QAction::triggered, this, &MatrixEditor::setIdentity);
    connect(m_zero, &QAction::triggered, this, &MatrixEditor::setZero);
    connect(m_transpose, &QAction::triggered, this, &MatrixEditor::transpose);
    connect(m_scale, &QAction::triggered, this, &MatrixEditor::askScale);
    connect(m_import, &QAction::triggered, this, &MatrixEditor::askImport);
    connect(m_export, &QAction::triggered, this, &MatrixEditor::askExport);

    m_titleLabel = new QLabel(this);
    m_titleLabel->setTextFormat(Qt::RichText);
    QFont titleFont = m_titleLabel->font();
    titleFont.setBold(true);
    m_titleLabel->setFont(titleFont);
    m_shapeLabel = new QLabel(this);
    m_shapeLabel->setForegroundRole(QPalette::PlaceholderText);
    m_seedLabel = new QLabel(this);
    m_seedLabel->setForegroundRole(QPalette::PlaceholderText);

    // Both rows wrap in a narrow dock (a projector) instead of widening the window.
    auto* topHost = new QWidget(this);
    auto* top = new FlowLayout(topHost, 6, 2);
    top->addWidget(m_titleLabel);
    top->addWidget(m_shapeLabel);
    top->addWidget(
        m_seedLabel); // here, not beside Randomize: the button row must fit a narrow dock
    top->addStretch();
    top->addWidget(toolButton(m_import));
    top->addWidget(toolButton(m_export));

    auto* toolsHost = new QWidget(this);
    auto* tools = new FlowLayout(toolsHost, 4, 4);
    tools->addWidget(toolButton(m_randomize));
    for (QAction* action : {m_identity, m_zero, m_transpose, m_scale})
        tools->addWidget(toolButton(action));

    m_view = new QTableView(this);
    m_view->setAccessibleName(tr("Matrix values"));
    m_view->setAccessibleDescription(
        tr("Arrow keys choose a cell; typing a number replaces its value."));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new CellDelegate(
        this, [this](int row, int column, float value) { commitCell(row, column, value); },
        [this](const QString& why) { showError(why); }));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectItems);
    m_view->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::AnyKeyPressed |
                            QAbstractItemView::EditKeyPressed);
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setCornerButtonEnabled(false);
    m_view->setMouseTracking(false);
    // Never ResizeToContents: it would measure all 32,768 cells of a 512 x 64 matrix.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->horizontalHeader()->setHighlightSections(true);
    m_view->verticalHeader()->setHighlightSections(true);
    m_view->installEventFilter(this);
    m_view->viewport()->installEventFilter(this);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] { showCurrentCell(); });

    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    layout->addWidget(topHost);
    layout->addWidget(toolsHost);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    setFocusProxy(m_view);
    updateMetrics();
    updateHeader();
    setSeed(m_seed);
}

MatrixEditor::~MatrixEditor() = default;

void MatrixEditor::setMatrix(const Matrix& m, const QStringList& rowLabels,
                             const QStringList& columnLabels)
{
    const QModelIndex current = m_view->currentIndex();
    const bool sameShape =
        m.rows() == m_model->matrix().rows() && m.cols() == m_model->matrix().cols();
    if (!sameShape && m_scrub.pressed)
        finishScrub(false); // the cell being scrubbed may be gone
    m_model->setMatrix(m, rowLabels, columnLabels);
    if (m_scrub.active) // the owner's copy may lag behind the pointer: the scrub wins
        m_model->setValue(m_scrub.row, m_scrub.column, m_scrub.value);
    if (!sameShape && current.isValid() && current.row() < m.rows() && current.column() < m.cols())
        m_view->setCurrentIndex(m_model->index(current.row(), current.column()));
    updateHeader();
    if (!m_statusIsError)
        showCurrentCell();
}

const Matrix& MatrixEditor::matrix() const
{
    return m_model->matrix();
}

void MatrixEditor::setTitle(const QString& title)
{
    m_title = title;
    updateHeader();
}

void MatrixEditor::setSeed(std::uint64_t seed)
{
    m_seed = seed;
    m_seedLabel->setText(tr("· seed %1").arg(seed));
    m_randomize->setToolTip(
        tr("Xavier-uniform values, \u00b1sqrt(6 / (rows + columns)), from seed %1 "
           "(the seed then advances)")
            .arg(seed));
}

std::optional<float> MatrixEditor::parseValue(const QString& text, QString* why)
{
    auto fail = [why](const QString& message) -> std::optional<float> {
        if (why)
            *why = message;
        return std::nullopt;
    };
    QString t = text.trimmed();
    // The locale's decimal comma is accepted too; there are no thousands separators here.
    const QString point = QLocale().decimalPoint();
    if (point != QLatin1String("."))
        t.replace(point, QLatin1String("."));
    t.replace(QChar(0x2212), QLatin1Char('-')); // a typographic minus, pasted from a document
    if (t.startsWith(QLatin1Char('+')))
        t.remove(0, 1);
    if (t.isEmpty())
        return fail(tr("Type a number (%1).").arg(boundText()));
    const QByteArray bytes = t.toLatin1();
    float value = 0.0f;
    const auto [end, error] =
        std::from_chars(bytes.constData(), bytes.constData() + bytes.size(), value);
    const bool whole = end == bytes.constData() + bytes.size() && !t.contains(QChar('?'));
    if (error == std::errc::result_out_of_range)
        return fail(tr("%1 is too large: values must be finite, with %2.")
                        .arg(text.trimmed(), boundText()));
    if (error != std::errc() || !whole)
        return fail(tr("\u201c%1\u201d is not a number; type a value such as 0.25 or -1e-3.")
                        .arg(text.trimmed()));
    if (!std::isfinite(value))
        return fail(tr("%1 is not allowed: values must be finite, with %2.")
                        .arg(text.trimmed(), boundText()));
    if (std::abs(value) > kMaxAbsValue)
        return fail(
            tr("%1 is too large: values must satisfy %2.").arg(text.trimmed(), boundText()));
    return value == 0.0f ? 0.0f : value; // no -0 in a weight
}

QString MatrixEditor::formatValue(float value)
{
    const double a = std::abs(double(value));
    if (a == 0.0)
        return QStringLiteral("0");
    if (a >= 1000.0) // "1234" reads better than "1.23e+03" and fits the same cell
        return QString::number(double(value), 'f', 0);
    if (a < 1e-3)
        return QString::number(double(value), 'g', 2);
    return QString::number(double(value), 'g', 3);
}

QString MatrixEditor::statusText() const
{
    return m_status->text();
}

void MatrixEditor::randomize()
{
    Matrix m = m_model->matrix();
    // Keyed by the title, so W^q and W^k drawn from the same seed still differ.
    core::initialiseMatrix(m, core::WeightInit::Xavier, m_seed, plainTitle(m_title).toStdString());
    const std::uint64_t used = m_seed;
    setSeed(m_seed + 1);
    replace(m, tr("Randomize %1 (seed %2)").arg(plainTitle(m_title)).arg(used));
}

void MatrixEditor::setIdentity()
{
    const Matrix& current = m_model->matrix();
    replace(Matrix::Identity(current.rows(), current.cols()),
            tr("Identity %1").arg(plainTitle(m_title)));
}

void MatrixEditor::setZero()
{
    const Matrix& current = m_model->matrix();
    replace(Matrix::Zero(current.rows(), current.cols()), tr("Zero %1").arg(plainTitle(m_title)));
}

void MatrixEditor::transpose()
{
    const Matrix& current = m_model->matrix();
    if (current.rows() != current.cols()) {
        showError(
            tr("Only a square matrix can be transposed here: %1 is %2, and its shape is fixed.")
                .arg(plainTitle(m_title), shapeText(current)));
        return;
    }
    replace(Matrix(current.transpose()), tr("Transpose %1").arg(plainTitle(m_title)));
}

void MatrixEditor::scaleBy(double factor)
{
    const Matrix scaled = (m_model->matrix().cast<double>() * factor).cast<float>();
    if (!std::isfinite(factor) || !badValue(scaled).isEmpty()) {
        showError(tr("Scaling %1 by %2 would leave values outside %3; nothing changed.")
                      .arg(plainTitle(m_title))
                      .arg(factor)
                      .arg(boundText()));
        return;
    }
    replace(scaled, tr("Scale %1 by %2").arg(plainTitle(m_title)).arg(factor));
}

bool MatrixEditor::importFile(const QString& path, const QString& tensorName)
{
    const QString name = QFileInfo(path).fileName();
    Matrix read;
    try {
        read = core::readMatrixFile(path, tensorName.toStdString());
    } catch (const std::exception& e) {
        showError(tr("Cannot import %1: %2").arg(name, QString::fromStdString(e.what())));
        return false;
    }
    const Matrix& current = m_model->matrix();
    // A 1-D array is read as one row; it fills a column vector of the same length too.
    const bool vectors =
        (read.rows() == 1 || read.cols() == 1) && (current.rows() == 1 || current.cols() == 1);
    if (vectors && read.size() == current.size())
        read = Eigen::Map<const Matrix>(Matrix(read).data(), current.rows(), current.cols());
    if (read.rows() != current.rows() || read.cols() != current.cols()) {
        showError(tr("Cannot import %1: it holds a %2 matrix, and %3 is %4. Nothing was changed.")
                      .arg(name, shapeText(read), plainTitle(m_title), shapeText(current)));
        return false;
    }
    if (const QString bad = badValue(read); !bad.isEmpty()) {
        showError(tr("Cannot import %1: %2. Nothing was changed.").arg(name, bad));
        return false;
    }
    replace(read, tr("Import %1 into %2").arg(name, plainTitle(m_title)));
    return true;
}

bool MatrixEditor::exportFile(const QString& path)
{
    try {
        core::writeMatrixFile(path, m_model->matrix());
    } catch (const std::exception& e) {
        showError(
            tr("Cannot export %1: %2").arg(plainTitle(m_title), QString::fromStdString(e.what())));
        return false;
    }
    m_statusIsError = false;
    m_status->setStyleSheet({});
    m_status->setText(tr("Exported %1 to %2").arg(plainTitle(m_title), QFileInfo(path).fileName()));
    return true;
}

void MatrixEditor::askScale()
{
    bool ok = false;
    const double factor =
        QInputDialog::getDouble(this, tr("Scale %1").arg(plainTitle(m_title)),
                                tr("Multiply every value by:"), 2.0, -1e6, 1e6, 6, &ok);
    if (ok)
        scaleBy(factor);
}

void MatrixEditor::askImport()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Import %1").arg(plainTitle(m_title)), QString(),
                                     tr("Matrices (*.npy *.csv *.safetensors);;NumPy (*.npy);;CSV "
                                        "(*.csv);;safetensors (*.safetensors)"));
    if (path.isEmpty())
        return;
    QString tensor;
    if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
        QStringList names;
        try {
            for (const std::string& n : core::safetensorsNames(path))
                names << QString::fromStdString(n);
        } catch (const std::exception& e) {
            showError(tr("Cannot import %1: %2")
                          .arg(QFileInfo(path).fileName(), QString::fromStdString(e.what())));
            return;
        }
        if (names.size() > 1) {
            bool ok = false;
            tensor = QInputDialog::getItem(this, tr("Import %1").arg(plainTitle(m_title)),
                                           tr("Tensor in %1:").arg(QFileInfo(path).fileName()),
                                           names, 0, false, &ok);
            if (!ok)
                return;
        }
    }
    importFile(path, tensor);
}

void MatrixEditor::askExport()
{
    QString base = plainTitle(m_title);
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("_"));
    base = base.remove(QRegularExpression(QStringLiteral("^_+|_+$")));
    QString filter;
    QString path = QFileDialog::getSaveFileName(
        this, tr("Export %1").arg(plainTitle(m_title)), base + QStringLiteral(".npy"),
        tr("NumPy (*.npy);;CSV (*.csv);;safetensors (*.safetensors)"), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty()) {
        static const QRegularExpression suffix(QStringLiteral(R"(\*(\.\w+))"));
        path += suffix.match(filter).captured(1);
    }
    exportFile(path);
}

bool MatrixEditor::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_view) {
        if (event->type() == QEvent::ShortcutOverride) {
            // The view's copy and paste win over a window's Edit menu while it has focus.
            auto* key = static_cast<QKeyEvent*>(event);
            if (key->matches(QKeySequence::Copy) || key->matches(QKeySequence::Paste) ||
                (m_scrub.active && key->key() == Qt::Key_Escape)) {
                event->accept();
                return true;
            }
        } else if (event->type() == QEvent::KeyPress) {
            return handleViewKey(static_cast<QKeyEvent*>(event));
        } else if (event->type() == QEvent::FocusOut && m_scrub.pressed) {
            finishScrub(false);
        }
    } else if (watched == m_view->viewport()) {
        return handleViewportMouse(event);
    }
    return QWidget::eventFilter(watched, event);
}

bool MatrixEditor::handleViewKey(QKeyEvent* event)
{
    const QModelIndex current = m_view->currentIndex();
    if (m_scrub.active && event->key() == Qt::Key_Escape) {
        finishScrub(true);
        return true;
    }
    if (!current.isValid())
        return false;
    if (event->matches(QKeySequence::Copy)) {
        QApplication::clipboard()->setText(current.data(Qt::EditRole).toString());
        return true;
    }
    if (event->matches(QKeySequence::Paste)) {
        QString why;
        if (const std::optional<float> value = parseValue(QApplication::clipboard()->text(), &why))
            commitCell(current.row(), current.column(), *value);
        else
            showError(tr("Cannot paste: %1").arg(why));
        return true;
    }
    // Enter opens an editor, unless it is the one a line edit passes on after committing.
    const bool editing = static_cast<const CellDelegate*>(m_view->itemDelegate())->isEditing();
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && !editing) {
        m_view->edit(current);
        return true;
    }
    return false;
}

bool MatrixEditor::handleViewportMouse(QEvent* event)
{
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const QModelIndex index = m_view->indexAt(mouse->position().toPoint());
        if (mouse->button() != Qt::LeftButton || !index.isValid())
            return false;
        m_scrub = Scrub{};
        m_scrub.pressed = true;
        m_scrub.row = index.row();
        m_scrub.column = index.column();
        m_scrub.startY = m_scrub.lastY = mouse->position().toPoint().y();
        return false; // the view selects the cell
    }
    case QEvent::MouseMove: {
        if (!m_scrub.pressed)
            return false;
        auto* mouse = static_cast<QMouseEvent*>(event);
        const int y = mouse->position().toPoint().y();
        if (!m_scrub.active) {
            if (std::abs(y - m_scrub.startY) < QApplication::startDragDistance())
                return true; // not yet a scrub; and no drag-selection either
            const Matrix& m = m_model->matrix();
            m_scrub.active = true;
            m_scrub.startValue = m_scrub.value = m(m_scrub.row, m_scrub.column);
            m_scrub.raw = double(m_scrub.value);
            m_scrub.lastY = m_scrub.startY;
            const double range = double(m.maxCoeff()) - double(m.minCoeff());
            m_scrub.range = range > 1e-6 ? range : std::max(1.0, double(m.cwiseAbs().maxCoeff()));
            m_view->viewport()->setCursor(Qt::SizeVerCursor);
            emit scrubStarted();
        }
        const double step = scrubStep(mouse->modifiers());
        m_scrub.raw += double(m_scrub.lastY - y) * step; // up is more
        m_scrub.lastY = y;
        const double bound = double(kMaxAbsValue);
        m_scrub.raw = std::clamp(m_scrub.raw, -bound, bound);
        // Rounded to the step's decade, so values read 0.35 rather than 0.3499712.
        const double quantum = std::pow(10.0, std::floor(std::log10(step)));
        float value = float(std::round(m_scrub.raw / quantum) * quantum);
        value = value == 0.0f ? 0.0f : value;
        if (value != m_scrub.value) {
            m_scrub.value = value;
            m_model->setValue(m_scrub.row, m_scrub.column, value);
            showCurrentCell();
            emit cellChanging(m_scrub.row, m_scrub.column, value);
        }
        return true;
    }
    case QEvent::MouseButtonRelease: {
        if (!m_scrub.pressed || static_cast<QMouseEvent*>(event)->button() != Qt::LeftButton)
            return false;
        const bool wasActive = m_scrub.active;
        finishScrub(false);
        return wasActive; // a plain click still reaches the view
    }
    default:
        return false;
    }
}

double MatrixEditor::scrubStep(Qt::KeyboardModifiers modifiers) const
{
    // 100 pixels sweep the matrix's value range; Shift is ten times finer.
    const double step = m_scrub.range / 100.0;
    return modifiers.testFlag(Qt::ShiftModifier) ? step / 10.0 : step;
}

void MatrixEditor::finishScrub(bool cancel)
{
    const bool wasActive = m_scrub.active;
    const Scrub scrub = m_scrub;
    m_scrub = Scrub{};
    if (!wasActive)
        return;
    m_view->viewport()->unsetCursor();
    if (cancel && scrub.value != scrub.startValue) {
        m_model->setValue(scrub.row, scrub.column, scrub.startValue);
        emit cellChanging(scrub.row, scrub.column, scrub.startValue);
    }
    showCurrentCell();
    emit scrubFinished();
}

void MatrixEditor::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        updateMetrics();
    if (event->type() == QEvent::PaletteChange && m_statusIsError)
        showError(m_status->text());
    QWidget::changeEvent(event);
}

void MatrixEditor::replace(const Matrix& m, const QString& what)
{
    if (m_scrub.pressed)
        finishScrub(false);
    m_model->setMatrix(m, m_model->rowLabels(), m_model->columnLabels());
    emit matrixReplaced(m, what);
}

void MatrixEditor::commitCell(int row, int column, float value)
{
    m_model->setValue(row, column, value);
    m_statusIsError = false;
    showCurrentCell();
    emit cellEdited(row, column, value);
}

void MatrixEditor::showError(const QString& message)
{
    m_statusIsError = true;
    // A red that reads on both light and dark windows.
    const bool dark = palette().color(QPalette::Window).lightnessF() < 0.5;
    m_status->setStyleSheet(QStringLiteral("color: %1")
                                .arg(dark ? QStringLiteral("#ff8a80") : QStringLiteral("#c62828")));
    m_status->setText(message);
    emit errorOccurred(message);
}

QString MatrixEditor::cellName(int row, int column) const
{
    QString name = tr("row %1").arg(row);
    if (const QString label = m_model->rowLabel(row); !label.isEmpty())
        name += QStringLiteral(" \u201c%1\u201d").arg(label);
    name += tr(", column %1").arg(column);
    if (const QString label = m_model->columnLabel(column); !label.isEmpty())
        name += QStringLiteral(" \u201c%1\u201d").arg(label);
    return name;
}

void MatrixEditor::showCurrentCell()
{
    m_statusIsError = false;
    m_status->setStyleSheet({});
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid()) {
        m_status->setText(m_model->matrix().size() > 0
                              ? tr("Select a cell, then type a value or drag up and down")
                              : QString());
        return;
    }
    m_status->setText(
        tr("%1 = %2 \u00b7 drag \u2195 to change, Shift for fine")
            .arg(cellName(current.row(), current.column()), current.data(Qt::EditRole).toString()));
}

void MatrixEditor::updateHeader()
{
    const Matrix& m = m_model->matrix();
    m_titleLabel->setText(richTitle(m_title));
    m_titleLabel->setVisible(!m_title.isEmpty());
    m_shapeLabel->setText(shapeText(m));
    const bool any = m.size() > 0;
    for (QAction* action : {m_randomize, m_identity, m_zero, m_scale, m_import, m_export})
        action->setEnabled(any);
    const bool square = any && m.rows() == m.cols();
    m_transpose->setEnabled(square);
    m_transpose->setToolTip(square
                                ? tr("Swap rows and columns")
                                : tr("Only a square matrix can be transposed: the shape is fixed"));
}

void MatrixEditor::updateMetrics()
{
    // Room for "-0.00123" and a little air; rows one line high.
    const QFontMetrics fm(m_view->font());
    m_view->horizontalHeader()->setMinimumSectionSize(8);
    m_view->verticalHeader()->setMinimumSectionSize(8);
    m_view->horizontalHeader()->setDefaultSectionSize(
        fm.horizontalAdvance(QStringLiteral("-0.00123")) + 10);
    m_view->verticalHeader()->setDefaultSectionSize(fm.height() + 8);
}

} // namespace attn::ui
