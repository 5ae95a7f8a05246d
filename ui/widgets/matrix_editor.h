#pragma once

#include "core/matrix.h"

#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <optional>

class QAction;
class QLabel;
class QTableView;

namespace attn::ui {

class MatrixEditorModel;

// One weight matrix as coloured cells (diverging map, symmetric around 0) that a user types
// into or scrubs by dragging vertically, with whole-matrix operations (randomize, identity,
// zero, transpose, scale, import, export). The editor updates its own display at once and
// reports every change by a signal; the owner applies it to its document and may call
// setMatrix again at any time without disturbing the selection or a scrub in progress.
class MatrixEditor : public QWidget
{
    Q_OBJECT

public:
    // Typed, pasted and imported values must be finite and within this bound: larger ones
    // are mistakes (1e30 overflows to inf in the first product) rather than weights.
    static constexpr float kMaxAbsValue = 1e6f;

    explicit MatrixEditor(QWidget* parent = nullptr);
    ~MatrixEditor() override;

    // Same shape: values are replaced in place (selection, editor and scrub are kept; the
    // scrubbed cell keeps its live value). Another shape resets the view.
    void setMatrix(const core::Matrix& m, const QStringList& rowLabels = {},
                   const QStringList& columnLabels = {});
    const core::Matrix& matrix() const;
    // Shown above the cells; "W^q · head 1" is set with a superscript. Also names the
    // matrix in messages and in matrixReplaced's `what`.
    void setTitle(const QString& title);
    QString title() const { return m_title; }
    // The seed Randomize uses next; each Randomize advances it by one.
    void setSeed(std::uint64_t seed);
    std::uint64_t seed() const { return m_seed; }

    // Parses a typed value: finite, |v| <= kMaxAbsValue. On failure returns nullopt and
    // sets `why` to a message a user can act on.
    static std::optional<float> parseValue(const QString& text, QString* why = nullptr);
    // A cell's text: about three significant digits ("0.123", "-1.5", "12.3", "1234").
    static QString formatValue(float value);

    QTableView* tableView() const { return m_view; }
    bool isScrubbing() const { return m_scrub.active; }
    // The line under the cells (the selected cell's exact value, or the last error).
    QString statusText() const;

    QAction* transposeAction() const { return m_transpose; } // enabled only when square

public slots:
    void randomize();
    void setIdentity();
    void setZero();
    void transpose();
    void scaleBy(double factor);
    // Reads a file into the matrix; a wrong shape or a bad value emits errorOccurred and
    // changes nothing. `tensorName` picks a safetensors tensor (empty: the only one).
    // Returns whether the matrix was replaced.
    bool importFile(const QString& path, const QString& tensorName = {});
    // Writes .npy, .csv or .safetensors (by extension) atomically. Returns success.
    bool exportFile(const QString& path);
    // The same with dialogs: a factor, a file (and a tensor), a file name.
    void askScale();
    void askImport();
    void askExport();

signals:
    void scrubStarted();
    void cellChanging(int row, int column, float value); // continuous, during a scrub
    void scrubFinished();
    void cellEdited(int row, int column, float value); // typed or pasted: one step
    void matrixReplaced(const attn::core::Matrix& matrix, const QString& what);
    void errorOccurred(const QString& message);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void replace(const core::Matrix& m, const QString& verb);
    void commitCell(int row, int column, float value);
    void showError(const QString& message);
    void showCurrentCell();
    void updateHeader();
    void updateMetrics();
    bool handleViewKey(QKeyEvent* event);
    bool handleViewportMouse(QEvent* event);
    void finishScrub(bool cancel);
    double scrubStep(Qt::KeyboardModifiers modifiers) const;
    QString cellName(int row, int column) const;

    MatrixEditorModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_titleLabel = nullptr;
    QLabel* m_shapeLabel = nullptr;
    QLabel* m_seedLabel = nullptr;
    QLabel* m_status = nullptr;
    QAction* m_randomize = nullptr;
    QAction* m_identity = nullptr;
    QAction* m_zero = nullptr;
    QAction* m_transpose = nullptr;
    QAction* m_scale = nullptr;
    QAction* m_import = nullptr;
    QAction* m_export = nullptr;
    QString m_title;
    std::uint64_t m_seed = 1;
    bool m_statusIsError = false;

    // A vertical drag on a cell: pressed, then past the drag distance, then released.
    struct Scrub
    {
        bool pressed = false;
        bool active = false;
        int row = -1;
        int column = -1;
        int lastY = 0;
        int startY = 0;
        float startValue = 0.0f;
        double raw = 0.0;   // the unrounded value the pointer has reached
        float value = 0.0f; // what is shown and emitted
        double range = 1.0; // the matrix's value range when the scrub began
    } m_scrub;
};

} // namespace attn::ui
