#include "ui/presentation/presentation_window.h"

#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/slide_builder.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QScreen>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <array>
#include <cmath>

namespace attn::ui {

namespace {

constexpr std::array kThemes{PresentationTheme::Light, PresentationTheme::Dark,
                             PresentationTheme::HighContrast, PresentationTheme::Print};

// The controls' type at a 1080-pixel-high screen; it scales with the height.
constexpr double kControlPixels = 20.0;

} // namespace

PresentationWindow::PresentationWindow(std::shared_ptr<const core::AttentionResult> result,
                                       QWidget* parent)
    : QWidget(parent, Qt::Window), m_result(std::move(result))
{
    // Ends with the application's name, which the platform would otherwise append again.
    setWindowTitle(tr("Presentation — Attention Explorer"));
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent); // the slide paints every pixel

    // The controls float over the bottom edge and take no room from the slide.
    m_controls = new QFrame(this);
    m_controls->setObjectName(QStringLiteral("presentationControls"));
    auto* bar = new QHBoxLayout(m_controls);
    m_previous = new QToolButton(m_controls);
    m_previous->setText(QStringLiteral("◀"));
    m_previous->setToolTip(tr("Previous step (Left, Page Up)"));
    m_position = new QLabel(m_controls);
    m_next = new QToolButton(m_controls);
    m_next->setText(QStringLiteral("▶"));
    m_next->setToolTip(tr("Next step (Right, Space, Page Down)"));
    m_headCombo = new QComboBox(m_controls);
    m_themeCombo = new QComboBox(m_controls);
    m_themeCombo->setObjectName(QStringLiteral("themeCombo"));
    m_themeCombo->setToolTip(tr("Colours for the room (T)"));
    for (PresentationTheme theme : kThemes)
        m_themeCombo->addItem(presentationThemeName(theme), int(theme));
    m_exit = new QToolButton(m_controls);
    m_exit->setText(tr("✕ Exit"));
    m_exit->setToolTip(tr("Leave the presentation (Escape, F11)"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_previous, m_position, m_next, m_headCombo,
                                                      m_themeCombo, m_exit}) {
        w->setFocusPolicy(Qt::NoFocus);
        bar->addWidget(w);
    }
    m_controls->hide();
    m_controls->setMouseTracking(true);
    m_controls->installEventFilter(this);

    connect(m_previous, &QToolButton::clicked, this, &PresentationWindow::previousStep);
    connect(m_next, &QToolButton::clicked, this, &PresentationWindow::nextStep);
    connect(m_exit, &QToolButton::clicked, this, &QWidget::close);
    connect(m_headCombo, &QComboBox::activated, this, [this](int index) { setHead(index); });
    connect(m_themeCombo, &QComboBox::activated, this, [this](int index) {
        setTheme(PresentationTheme(m_themeCombo->itemData(index).toInt()));
    });

    m_hideTimer = new QTimer(this);
    m_hideTimer->setSingleShot(true);
    m_hideTimer->setInterval(2000);
    connect(m_hideTimer, &QTimer::timeout, this, &PresentationWindow::hideControls);

    updateHeadCombo();
    applyTheme();
    updateControls();
}

PresentationWindow::~PresentationWindow() = default;

void PresentationWindow::showOver(QWidget& window, QWidget* fallback)
{
    QPointer<QWidget> hadKeys = QApplication::focusWidget();
    QPointer<QWidget> other = fallback;
    // `window` is the connection's context: the call never outlives it.
    connect(this, &PresentationWindow::closed, &window, [&window, hadKeys, other] {
        // Back to the window, keys and all: F11, Ctrl+E and typing work at once.
        window.activateWindow();
        window.raise();
        QWidget* focus = hadKeys && window.isAncestorOf(hadKeys) ? hadKeys.data() : other.data();
        if (focus)
            focus->setFocus(Qt::OtherFocusReason);
    });
    setGeometry(window.screen()->geometry());
    showFullScreen();
}

int PresentationWindow::stepCount() const
{
    return int(presentationSteps(m_extras.get()).size());
}

PresentationStep PresentationWindow::stepKind() const
{
    const std::vector<PresentationStep> steps = presentationSteps(m_extras.get());
    return steps[std::size_t(std::clamp(m_step, 1, int(steps.size())) - 1)];
}

QString PresentationWindow::stepName(int step)
{
    return presentationStepName(step);
}

QString PresentationWindow::caption() const
{
    return m_result ? presentationCaption(int(stepKind()), *m_result->problem, m_extras.get())
                    : QString();
}

QString PresentationWindow::numbers() const
{
    if (!m_result || !m_slide)
        return {};
    return presentationNumbers(int(stepKind()), *m_result, m_head, m_query, m_key, m_extras.get());
}

QWidget* PresentationWindow::controls() const
{
    return m_controls;
}

void PresentationWindow::setControlsHideDelay(int milliseconds)
{
    m_hideTimer->setInterval(milliseconds);
}

void PresentationWindow::setResult(std::shared_ptr<const core::AttentionResult> result)
{
    m_result = std::move(result);
    updateHeadCombo();
    m_head = std::clamp(m_head, 0, std::max(0, m_headCombo->count() - 1));
    if (m_result) { // the chosen cell stays, where the new input still has it
        m_query = std::min(m_query, m_result->problem->queryCount() - 1);
        m_key = std::min(m_key, m_result->problem->keyCount() - 1);
    }
    m_rebuild
        .schedule(); // a slider dragged in the explorer sends results faster than slides are drawn
}

void PresentationWindow::setExtras(std::shared_ptr<const PresentationExtras> extras)
{
    m_extras = std::move(extras);
    m_step = std::clamp(m_step, 1, stepCount());
    updateControls();
    m_rebuild.schedule();
}

void PresentationWindow::setHead(int head)
{
    head = std::clamp(head, 0, std::max(0, m_headCombo->count() - 1));
    if (head == m_head)
        return;
    m_head = head;
    m_headCombo->setCurrentIndex(head);
    rebuild();
}

void PresentationWindow::setTheme(PresentationTheme theme)
{
    if (theme == m_theme)
        return;
    m_theme = theme;
    m_themeCombo->setCurrentIndex(m_themeCombo->findData(int(theme)));
    applyTheme();
    rebuild();
}

void PresentationWindow::setWeightScale(WeightScale scale)
{
    if (scale == m_weightScale)
        return;
    m_weightScale = scale;
    rebuild();
}

void PresentationWindow::setStep(int step)
{
    step = std::clamp(step, 1, stepCount());
    if (step == m_step)
        return;
    m_step = step;
    updateControls();
    rebuild();
    emit stepChanged(m_step);
}

void PresentationWindow::nextStep()
{
    setStep(m_step + 1);
}

void PresentationWindow::previousStep()
{
    setStep(m_step - 1);
}

void PresentationWindow::setQuery(int query)
{
    if (!m_result)
        return;
    query = std::clamp(query, 0, std::max(0, m_result->problem->queryCount() - 1));
    choose(query, defaultKey(*m_result, m_head, query));
}

void PresentationWindow::setKey(int key)
{
    if (!m_result)
        return;
    choose(m_query < 0 ? defaultQuery(*m_result, m_head) : m_query,
           std::clamp(key, 0, std::max(0, m_result->problem->keyCount() - 1)));
}

void PresentationWindow::choose(int query, int key)
{
    if (query == m_query && key == m_key)
        return;
    m_query = query;
    m_key = key;
    rebuild();
    emit cellChosen(m_query, m_key);
}

void PresentationWindow::keyPressEvent(QKeyEvent* event)
{
    // What presentation clickers send: Page Down/Up (most), Right/Left, Space, Backspace.
    // Up and Down choose the query; with Shift, Left and Right choose the key.
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
    case Qt::Key_Right:
        shift ? setKey(m_key + 1) : nextStep();
        break;
    case Qt::Key_Left:
        shift ? setKey(m_key - 1) : previousStep();
        break;
    case Qt::Key_Space:
    case Qt::Key_PageDown:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        nextStep();
        break;
    case Qt::Key_PageUp:
    case Qt::Key_Backspace:
        previousStep();
        break;
    case Qt::Key_Up:
        setQuery(m_query - 1);
        break;
    case Qt::Key_Down:
        setQuery(m_query + 1);
        break;
    case Qt::Key_Home:
        setStep(1);
        break;
    case Qt::Key_End:
        setStep(stepCount());
        break;
    case Qt::Key_T: { // the next theme: light and dark for the room, then the others
        const auto at = std::find(kThemes.begin(), kThemes.end(), m_theme);
        setTheme(kThemes[std::size_t((at - kThemes.begin() + 1) % kThemes.size())]);
        break;
    }
    case Qt::Key_Escape:
    case Qt::Key_F11:
        close();
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void PresentationWindow::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    if (m_slide && m_slide->size == QSizeF(size())) {
        paintSlide(painter, *m_slide);
        return;
    }
    const FigureStyle style = presentationStyle(m_theme);
    painter.fillRect(rect(), style.background);
    if (!m_message.isEmpty()) {
        QFont font = this->font();
        font.setPixelSize(int(std::lround(28.0 * std::max(0.4, height() / kSlideReferenceHeight))));
        painter.setFont(font);
        painter.setPen(style.text);
        painter.drawText(rect().adjusted(width() / 8, 0, -width() / 8, 0),
                         Qt::AlignCenter | Qt::TextWordWrap, m_message);
    }
}

void PresentationWindow::mouseMoveEvent(QMouseEvent* event)
{
    pointerMoved();
    hover(event->position());
    QWidget::mouseMoveEvent(event);
}

void PresentationWindow::wheelEvent(QWheelEvent* event)
{
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0 || !m_result) {
        QWidget::wheelEvent(event);
        return;
    }
    setQuery(m_query - steps); // wheel up: the query above
    event->accept();
}

void PresentationWindow::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    applySizes();
    m_rebuild.schedule();
}

void PresentationWindow::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    applySizes();
    rebuild();
    setFocus();
}

void PresentationWindow::closeEvent(QCloseEvent* event)
{
    QWidget::closeEvent(event);
    if (event->isAccepted())
        emit closed();
}

bool PresentationWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_controls && event->type() == QEvent::MouseMove)
        pointerMoved();
    return QWidget::eventFilter(watched, event);
}

void PresentationWindow::rebuild()
{
    m_rebuild.markDone();
    if (!m_result) {
        m_slide.reset();
        m_message = tr("Nothing to present yet.");
        update();
        return;
    }
    if (width() < 64 || height() < 64)
        return; // built when shown
    try {
        checkPresentable(*m_result);
        if (m_query < 0) { // the presentation opens on its clearest query
            m_query = defaultQuery(*m_result, m_head);
            m_key = defaultKey(*m_result, m_head, m_query);
        }
        SlideOptions options;
        options.step = m_step;
        options.head = m_head;
        options.query = m_query;
        options.key = m_key;
        options.theme = m_theme;
        options.weightScale = m_weightScale;
        options.extras = m_extras;
        m_slide = buildSlide(*m_result, options, QSizeF(size()));
        m_message.clear();
    } catch (const std::exception& error) {
        m_slide.reset();
        m_message = QString::fromUtf8(error.what());
    }
    update();
}

void PresentationWindow::updateControls()
{
    m_position->setText(QStringLiteral("%1 / %2").arg(m_step).arg(stepCount()));
    m_previous->setEnabled(m_step > 1);
    m_next->setEnabled(m_step < stepCount());
}

void PresentationWindow::applyTheme()
{
    // The bar is dark in every theme, so it reads over any slide.
    m_controls->setStyleSheet(QStringLiteral(
        "#presentationControls { background: rgba(20, 20, 20, 225); border-radius: 8px; }"
        "#presentationControls QLabel, #presentationControls QToolButton { color: white; }"
        "#presentationControls QToolButton { border: none; padding: 2px 10px; }"
        "#presentationControls QToolButton:hover { background: rgba(255, 255, 255, 40); }"
        "#presentationControls QToolButton:disabled { color: #777; }"
        "#presentationControls QComboBox { color: white; background: rgba(255, 255, 255, 30);"
        " border: 1px solid #777; border-radius: 4px; padding: 2px 10px; }"
        "#presentationControls QComboBox QAbstractItemView { color: white; background: #262626;"
        " selection-background-color: #555; }"));
    update();
}

void PresentationWindow::applySizes()
{
    const double scale = std::max(0.4, height() / kSlideReferenceHeight);
    QFont controls = font();
    controls.setPixelSize(int(std::lround(kControlPixels * scale)));
    m_controls->setFont(controls);
    for (QWidget* w : m_controls->findChildren<QWidget*>())
        w->setFont(controls);
    placeControls();
}

void PresentationWindow::updateHeadCombo()
{
    const int heads = m_result ? int(m_result->heads.size()) : 0;
    if (m_headCombo->count() != heads) {
        m_headCombo->clear();
        for (int h = 0; h < heads; ++h)
            m_headCombo->addItem(tr("Head %1").arg(h + 1));
    }
    m_headCombo->setVisible(heads > 1);
    m_headCombo->setCurrentIndex(std::clamp(m_head, 0, std::max(0, heads - 1)));
}

void PresentationWindow::pointerMoved()
{
    if (!m_controls->isVisible()) {
        m_controls->show();
        m_controls->raise();
        placeControls();
    }
    unsetCursor();
    m_hideTimer->start();
}

void PresentationWindow::hideControls()
{
    // Not while the pointer rests on the bar or one of its lists is open.
    const bool inUse = m_controls->underMouse() || m_headCombo->view()->isVisible() ||
                       m_themeCombo->view()->isVisible();
    if (inUse) {
        m_hideTimer->start();
        return;
    }
    m_controls->hide();
    setCursor(Qt::BlankCursor); // nothing on the screen but the slide
}

void PresentationWindow::placeControls()
{
    m_controls->adjustSize();
    const QSize size = m_controls->sizeHint();
    const int bottom = int(std::lround(8 * std::max(0.4, height() / kSlideReferenceHeight)));
    m_controls->setGeometry((width() - size.width()) / 2, height() - size.height() - bottom,
                            size.width(), size.height());
}

// The pointer chooses the cell it rests on: a query and a key in a queries x keys matrix,
// the query (or the key) whose vector a row of Q, K, V or X is.
void PresentationWindow::hover(QPointF pixel)
{
    if (!m_slide || !m_result)
        return;
    const auto hit = m_slide->hit(pixel);
    if (!hit)
        return; // the last choice stays, and with it the numbers on screen
    if (hit->chip >= 0) {
        if (hit->sourceChip)
            setKey(hit->chip);
        else if (hit->chip != m_query)
            setQuery(hit->chip);
        return;
    }
    const SlidePanel& panel = m_slide->panels[std::size_t(hit->panel)];
    if (panel.name == QLatin1String("focus output"))
        return; // the sum of one query's row: no key of its own
    if (panel.keyColumns)
        choose(hit->row, hit->column);
    else if (panel.queryRows)
        choose(hit->row, m_key);
    else
        choose(m_query, hit->row);
}

} // namespace attn::ui
