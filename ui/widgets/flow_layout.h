#pragma once

#include <QLayout>
#include <QList>

namespace attn::ui {

// Lays widgets out left to right and wraps them onto more lines when the width runs out
// (Qt's Flow Layout example), so that a row of controls fits a narrow panel or a projector
// instead of widening the window: its minimum width is its widest item.
class FlowLayout : public QLayout
{
public:
    explicit FlowLayout(QWidget* parent = nullptr, int horizontalSpacing = 8,
                        int verticalSpacing = 4);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override;
    bool hasHeightForWidth() const override;
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

    // An item that takes the rest of its line (a stretch before right-aligned items).
    void addStretch();

private:
    int doLayout(const QRect& rect, bool testOnly) const;

    QList<QLayoutItem*> m_items;
    int m_hSpace;
    int m_vSpace;
};

} // namespace attn::ui
