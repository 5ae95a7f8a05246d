#pragma once

// Private to MatrixEditor: the table model behind its cells and the delegate that paints and
// edits them.

#include "ui/figures/colormap.h"
#include "ui/widgets/matrix_editor.h"

#include "core/matrix.h"

#include <QAbstractTableModel>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPainter>
#include <QStyledItemDelegate>
#include <algorithm>
#include <charconv>
#include <functional>

namespace attn::ui {

// The cells, and the colour scale they share: symmetric around 0, so that white is 0 in
// every matrix and a sign reads at a glance.
class MatrixEditorModel : public QAbstractTableModel
{
public:
    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_matrix.rows());
    }
    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_matrix.cols());
    }

    QVariant data(const QModelIndex& index, int role) const override
    {
        if (!index.isValid())
            return {};
        const float v = value(index.row(), index.column());
        switch (role) {
        case Qt::DisplayRole:
            return MatrixEditor::formatValue(v);
        case Qt::EditRole:
            return exactText(v);
        case Qt::ToolTipRole:
            return exactText(v);
        case Qt::BackgroundRole:
            return colorOf(v);
        case Qt::ForegroundRole:
            return textColorOn(colorOf(v));
        case Qt::TextAlignmentRole:
            return int(Qt::AlignCenter);
        default:
            return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        const QStringList& labels = orientation == Qt::Vertical ? m_rowLabels : m_columnLabels;
        const QString label = section < labels.size() ? labels[section] : QString::number(section);
        if (role == Qt::DisplayRole) {
            // Long tokens would widen the header past the cells; the tooltip has them whole.
            constexpr int kMaxLabel = 14;
            return label.size() > kMaxLabel ? label.left(kMaxLabel - 1) + QChar(0x2026) : label;
        }
        if (role == Qt::ToolTipRole)
            return QStringLiteral("%1 %2%3")
                .arg(orientation == Qt::Vertical ? QStringLiteral("row") : QStringLiteral("column"))
                .arg(section)
                .arg(section < labels.size() ? QStringLiteral(": ") + labels[section] : QString());
        return {};
    }

    Qt::ItemFlags flags(const QModelIndex& index) const override
    {
        return index.isValid() ? Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable
                               : Qt::NoItemFlags;
    }

    const core::Matrix& matrix() const { return m_matrix; }
    float value(int row, int column) const { return m_matrix(row, column); }
    const QStringList& rowLabels() const { return m_rowLabels; }
    const QStringList& columnLabels() const { return m_columnLabels; }
    QString rowLabel(int row) const
    {
        return row < m_rowLabels.size() ? m_rowLabels[row] : QString();
    }
    QString columnLabel(int column) const
    {
        return column < m_columnLabels.size() ? m_columnLabels[column] : QString();
    }

    void setMatrix(const core::Matrix& m, const QStringList& rowLabels,
                   const QStringList& columnLabels)
    {
        const bool sameShape = m.rows() == m_matrix.rows() && m.cols() == m_matrix.cols();
        const bool sameLabels = rowLabels == m_rowLabels && columnLabels == m_columnLabels;
        if (!sameShape)
            beginResetModel();
        m_matrix = m;
        m_rowLabels = rowLabels;
        m_columnLabels = columnLabels;
        m_scale = maxAbs();
        if (!sameShape) {
            endResetModel();
            return;
        }
        // In place: a reset would drop the selection and close an open editor.
        if (m_matrix.size() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        if (!sameLabels) {
            emit headerDataChanged(Qt::Vertical, 0, std::max(0, rowCount() - 1));
            emit headerDataChanged(Qt::Horizontal, 0, std::max(0, columnCount() - 1));
        }
    }

    void setValue(int row, int column, float v)
    {
        m_matrix(row, column) = v;
        const float scale = maxAbs();
        if (scale != m_scale) { // every colour moves with the scale
            m_scale = scale;
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        } else {
            emit dataChanged(index(row, column), index(row, column));
        }
    }

    QColor colorOf(float v) const
    {
        const double scale = m_scale > 0.0f ? double(m_scale) : 1.0;
        return colorAt(Colormap::Diverging, 0.5 + 0.5 * double(v) / scale);
    }

    // The shortest text that reads back as the same float: what an edit starts from.
    static QString exactText(float v)
    {
        char buffer[32];
        const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
        return QString::fromLatin1(buffer, int(end - buffer));
    }

private:
    float maxAbs() const { return m_matrix.size() > 0 ? m_matrix.cwiseAbs().maxCoeff() : 0.0f; }

    core::Matrix m_matrix;
    QStringList m_rowLabels;
    QStringList m_columnLabels;
    float m_scale = 0.0f;
};

// Paints a cell as a coloured tile (the 1-pixel gap to its neighbours is the grid) and
// edits it in a line edit that refuses what parseValue refuses, keeping the editor open.
class CellDelegate : public QStyledItemDelegate
{
public:
    CellDelegate(QObject* parent, std::function<void(int, int, float)> commit,
                 std::function<void(const QString&)> refuse)
        : QStyledItemDelegate(parent), m_commit(std::move(commit)), m_refuse(std::move(refuse))
    {
    }

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override
    {
        const auto* model = static_cast<const MatrixEditorModel*>(index.model());
        const float v = model->value(index.row(), index.column());
        const QColor background = model->colorOf(v);
        const QRect cell = option.rect.adjusted(0, 0, -1, -1);
        painter->fillRect(cell, background);
        painter->setPen(textColorOn(background));
        painter->setFont(option.font);
        const QString text = MatrixEditor::formatValue(v);
        painter->drawText(cell.adjusted(2, 0, -2, 0), Qt::AlignCenter,
                          option.fontMetrics.elidedText(text, Qt::ElideRight, cell.width() - 4));
        if (option.state & QStyle::State_Selected) {
            // A ring in the text colour with a base-coloured line inside: it reads on every
            // colour of the map, where the highlight colour would vanish on a blue cell.
            painter->setPen(QPen(option.palette.color(QPalette::Text), 2.0));
            painter->drawRect(QRectF(cell).adjusted(1.0, 1.0, -1.0, -1.0));
            painter->setPen(QPen(option.palette.color(QPalette::Base), 1.0));
            painter->drawRect(QRectF(cell).adjusted(2.5, 2.5, -2.5, -2.5));
        }
    }

    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option,
                          const QModelIndex&) const override
    {
        auto* edit = new QLineEdit(parent);
        ++m_openEditors;
        edit->setFrame(false);
        edit->setAlignment(Qt::AlignCenter);
        edit->setFont(option.font);
        return edit;
    }

    void destroyEditor(QWidget* editor, const QModelIndex& index) const override
    {
        --m_openEditors;
        QStyledItemDelegate::destroyEditor(editor, index);
    }

    bool isEditing() const { return m_openEditors > 0; }

    void setEditorData(QWidget* editor, const QModelIndex& index) const override
    {
        static_cast<QLineEdit*>(editor)->setText(index.data(Qt::EditRole).toString());
    }

    void setModelData(QWidget* editor, QAbstractItemModel*, const QModelIndex& index) const override
    {
        const QString text = static_cast<QLineEdit*>(editor)->text();
        if (text == index.data(Qt::EditRole).toString())
            return; // unchanged: no undo step
        QString why;
        if (const std::optional<float> value = MatrixEditor::parseValue(text, &why))
            m_commit(index.row(), index.column(), *value);
        else
            m_refuse(why); // focus left with bad text: the cell keeps its value
    }

    void updateEditorGeometry(QWidget* editor, const QStyleOptionViewItem& option,
                              const QModelIndex&) const override
    {
        editor->setGeometry(option.rect.adjusted(0, 0, -1, -1));
    }

protected:
    bool eventFilter(QObject* object, QEvent* event) override
    {
        if (event->type() == QEvent::KeyPress) {
            const int key = static_cast<QKeyEvent*>(event)->key();
            if (key == Qt::Key_Return || key == Qt::Key_Enter) {
                auto* edit = qobject_cast<QLineEdit*>(object);
                QString why;
                if (edit && !MatrixEditor::parseValue(edit->text(), &why)) {
                    m_refuse(why);
                    edit->selectAll();
                    return true; // stay in the editor so the text can be fixed
                }
            }
        }
        return QStyledItemDelegate::eventFilter(object, event);
    }

private:
    std::function<void(int, int, float)> m_commit;
    std::function<void(const QString&)> m_refuse;
    mutable int m_openEditors = 0;
};

} // namespace attn::ui
