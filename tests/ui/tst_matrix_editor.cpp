// The matrix editor: typed values arrive as the exact float or not at all, a vertical drag
// scrubs one cell continuously, whole-matrix operations keep the shape, and a bad import
// changes nothing. The number fields beside them say why a typed number is refused.

#include "ui/widgets/decimal_field.h"
#include "ui/widgets/integer_field.h"
#include "ui/widgets/matrix_editor.h"

#include "core/atomic_file.h"
#include "core/matrix_io.h"

#include <QAbstractItemModel>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>

using namespace attn;
using core::Matrix;

namespace {

Matrix sample()
{
    Matrix m(3, 3);
    m << 0.5f, -1.0f, 0.25f, //
        2.0f, 0.0f, -0.125f, //
        1.5f, 3.0f, -2.0f;
    return m;
}

QModelIndex cell(ui::MatrixEditor& editor, int row, int column)
{
    return editor.tableView()->model()->index(row, column);
}

QLineEdit* openEditor(ui::MatrixEditor& editor, int row, int column)
{
    QTableView* view = editor.tableView();
    view->setCurrentIndex(cell(editor, row, column));
    view->edit(cell(editor, row, column));
    return view->viewport()->findChild<QLineEdit*>();
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons,
               Qt::KeyboardModifiers modifiers)
{
    QMouseEvent event(type, pos, widget->mapToGlobal(pos),
                      type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons,
                      modifiers);
    QApplication::sendEvent(widget, &event);
}

// Types `text` over a number field's text and presses Enter: what the field said (refused),
// empty when nothing.
template <typename Field> QString typeAndEnter(Field& field, const QString& text)
{
    QSignalSpy refused(&field, &Field::refused);
    field.selectAll();
    QTest::keyClicks(&field, text);
    QTest::keyClick(&field, Qt::Key_Return);
    return refused.isEmpty() ? QString() : refused.back().front().toString();
}

} // namespace

class TestMatrixEditor : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_editor = std::make_unique<ui::MatrixEditor>();
        m_editor->setTitle(QStringLiteral("W^q \u00b7 head 1"));
        m_editor->setMatrix(sample(), {"the", "cat", "sat"}, {});
        m_editor->resize(520, 360);
        m_editor->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_editor.get()));
    }

    void cleanup() { m_editor.reset(); }

    void setMatrixShowsValues()
    {
        const QAbstractItemModel* model = m_editor->tableView()->model();
        QCOMPARE(model->rowCount(), 3);
        QCOMPARE(model->columnCount(), 3);
        QCOMPARE(model->data(cell(*m_editor, 0, 0)).toString(), QStringLiteral("0.5"));
        QCOMPARE(model->data(cell(*m_editor, 1, 2)).toString(), QStringLiteral("-0.125"));
        QCOMPARE(model->headerData(1, Qt::Vertical).toString(), QStringLiteral("cat"));
        QCOMPARE(m_editor->matrix(), sample());
        // Symmetric around 0: zero is the map's white middle, +x and -x equally far from it.
        const QColor zero = model->data(cell(*m_editor, 1, 1), Qt::BackgroundRole).value<QColor>();
        QVERIFY(zero.lightnessF() > 0.9);
    }

    void formatsThreeSignificantDigits_data()
    {
        QTest::addColumn<float>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << 0.0f << "0";
        QTest::newRow("integer") << 1.0f << "1";
        QTest::newRow("fraction") << 0.123456f << "0.123";
        QTest::newRow("negative") << -12.3456f << "-12.3";
        QTest::newRow("thousands") << 1234.5f << "1235";
        QTest::newRow("small") << 0.000123456f << "0.00012";
    }

    void formatsThreeSignificantDigits()
    {
        QFETCH(float, value);
        QFETCH(QString, text);
        QCOMPARE(ui::MatrixEditor::formatValue(value), text);
    }

    void typedValueEmitsExactFloat_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<float>("expected");
        QTest::newRow("tenth") << "0.1" << 0.1f;
        QTest::newRow("exponent") << "-2.5e-3" << -2.5e-3f;
        QTest::newRow("spaces and plus") << "  +7 " << 7.0f;
        QTest::newRow("bound") << "1000000" << 1e6f;
        QTest::newRow("many digits") << "0.333333343" << 0.333333343f;
    }

    void typedValueEmitsExactFloat()
    {
        QFETCH(QString, typed);
        QFETCH(float, expected);
        QSignalSpy edited(m_editor.get(), &ui::MatrixEditor::cellEdited);
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        QLineEdit* edit = openEditor(*m_editor, 2, 1);
        QVERIFY(edit);
        QTest::keyClicks(edit, typed);
        QTest::keyClick(edit, Qt::Key_Return);
        QTRY_COMPARE(edited.count(), 1); // the delegate commits from the event loop
        QCOMPARE(edited[0][0].toInt(), 2);
        QCOMPARE(edited[0][1].toInt(), 1);
        const float value = edited[0][2].toFloat();
        QVERIFY(value == expected); // bit for bit, not fuzzy
        QVERIFY(m_editor->matrix()(2, 1) == expected);
        QCOMPARE(replaced.count(), 0);
    }

    void typingOnASelectedCellStartsAnEdit()
    {
        QSignalSpy edited(m_editor.get(), &ui::MatrixEditor::cellEdited);
        QTableView* view = m_editor->tableView();
        view->setFocus();
        view->setCurrentIndex(cell(*m_editor, 0, 2));
        QTest::keyClick(view, Qt::Key_4, Qt::NoModifier);
        auto* edit = view->viewport()->findChild<QLineEdit*>();
        QVERIFY(edit);
        QCOMPARE(edit->text(), QStringLiteral("4")); // the old value was replaced, not appended to
        QTest::keyClick(edit, Qt::Key_Return);
        QTRY_COMPARE(edited.count(), 1);
        QVERIFY(m_editor->matrix()(0, 2) == 4.0f);
        QTRY_VERIFY(!view->viewport()->findChild<QLineEdit*>()); // closed, and no new one
    }

    void escapeCancelsAnEdit()
    {
        QSignalSpy edited(m_editor.get(), &ui::MatrixEditor::cellEdited);
        QLineEdit* edit = openEditor(*m_editor, 0, 0);
        QVERIFY(edit);
        QTest::keyClicks(edit, QStringLiteral("9"));
        QTest::keyClick(edit, Qt::Key_Escape);
        QCoreApplication::processEvents();
        QCOMPARE(edited.count(), 0);
        QCOMPARE(m_editor->matrix(), sample());
    }

    void refusesBadText_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("reason"); // a word the message must contain
        QTest::newRow("nan") << "nan"
                             << "finite";
        QTest::newRow("inf") << "-inf"
                             << "finite";
        QTest::newRow("1e30") << "1e30"
                              << "1e6";
        QTest::newRow("past float") << "1e39"
                                    << "1e6";
        QTest::newRow("garbage") << "abc"
                                 << "not a number";
        QTest::newRow("trailing junk") << "0.5x"
                                       << "not a number";
        QTest::newRow("empty") << ""
                               << "number";
    }

    void refusesBadText()
    {
        QFETCH(QString, typed);
        QFETCH(QString, reason);
        QSignalSpy edited(m_editor.get(), &ui::MatrixEditor::cellEdited);
        QSignalSpy errors(m_editor.get(), &ui::MatrixEditor::errorOccurred);
        QLineEdit* edit = openEditor(*m_editor, 1, 0);
        QVERIFY(edit);
        edit->clear();
        QTest::keyClicks(edit, typed);
        QTest::keyClick(edit, Qt::Key_Return);
        QCoreApplication::processEvents();
        QCOMPARE(edited.count(), 0);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors[0][0].toString().contains(reason), qPrintable(errors[0][0].toString()));
        QCOMPARE(m_editor->statusText(), errors[0][0].toString());
        // The editor stays open with the text, so it can be fixed; Escape leaves it.
        QVERIFY(m_editor->tableView()->viewport()->findChild<QLineEdit*>());
        QTest::keyClick(edit, Qt::Key_Escape);
        QCoreApplication::processEvents();
        QCOMPARE(edited.count(), 0);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(m_editor->matrix(), sample());

        QString why;
        QVERIFY(!ui::MatrixEditor::parseValue(typed, &why));
        QVERIFY(!why.isEmpty());
    }

    void scrubUpwardIncreases()
    {
        QSignalSpy started(m_editor.get(), &ui::MatrixEditor::scrubStarted);
        QSignalSpy changing(m_editor.get(), &ui::MatrixEditor::cellChanging);
        QSignalSpy finished(m_editor.get(), &ui::MatrixEditor::scrubFinished);
        QSignalSpy edited(m_editor.get(), &ui::MatrixEditor::cellEdited);
        QWidget* viewport = m_editor->tableView()->viewport();
        const QPoint start = m_editor->tableView()->visualRect(cell(*m_editor, 1, 1)).center();

        QTest::mousePress(viewport, Qt::LeftButton, {}, start);
        for (int k = 1; k <= 6; ++k)
            QTest::mouseMove(viewport, start - QPoint(0, 8 * k));
        QVERIFY(m_editor->isScrubbing());
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, start - QPoint(0, 48));

        QCOMPARE(started.count(), 1);
        QCOMPARE(finished.count(), 1);
        QCOMPARE(edited.count(), 0);
        QVERIFY(changing.count() >= 4);
        float previous = sample()(1, 1);
        for (const QList<QVariant>& args : changing) {
            QCOMPARE(args[0].toInt(), 1);
            QCOMPARE(args[1].toInt(), 1);
            QVERIFY2(args[2].toFloat() > previous, "an upward drag only increases the value");
            previous = args[2].toFloat();
        }
        QVERIFY(m_editor->matrix()(1, 1) == previous);
        // The step follows the range (5 here): 48 px is about half of it, not 48 units.
        QVERIFY(previous > 1.0f && previous < 5.0f);
        QVERIFY(!m_editor->isScrubbing());
        QCOMPARE(m_editor->tableView()->currentIndex(), cell(*m_editor, 1, 1));
    }

    void shiftScrubsFinely()
    {
        QSignalSpy changing(m_editor.get(), &ui::MatrixEditor::cellChanging);
        QWidget* viewport = m_editor->tableView()->viewport();
        const QPoint start = m_editor->tableView()->visualRect(cell(*m_editor, 0, 0)).center();
        auto drag = [&](Qt::KeyboardModifiers modifiers) {
            m_editor->setMatrix(sample());
            changing.clear();
            sendMouse(viewport, QEvent::MouseButtonPress, start, Qt::LeftButton, modifiers);
            sendMouse(viewport, QEvent::MouseMove, start - QPoint(0, 10), Qt::LeftButton,
                      modifiers);
            sendMouse(viewport, QEvent::MouseMove, start - QPoint(0, 30), Qt::LeftButton,
                      modifiers);
            sendMouse(viewport, QEvent::MouseButtonRelease, start - QPoint(0, 30), Qt::NoButton,
                      modifiers);
            return m_editor->matrix()(0, 0) - sample()(0, 0);
        };
        const float coarse = drag(Qt::NoModifier);
        const float fine = drag(Qt::ShiftModifier);
        QVERIFY(coarse > 0.0f && fine > 0.0f);
        QVERIFY2(std::abs(coarse / fine - 10.0f) < 1.0f,
                 qPrintable(QStringLiteral("%1 vs %2").arg(coarse).arg(fine)));
    }

    void escapeCancelsAScrub()
    {
        QSignalSpy finished(m_editor.get(), &ui::MatrixEditor::scrubFinished);
        QSignalSpy changing(m_editor.get(), &ui::MatrixEditor::cellChanging);
        QWidget* viewport = m_editor->tableView()->viewport();
        const QPoint start = m_editor->tableView()->visualRect(cell(*m_editor, 2, 2)).center();
        QTest::mousePress(viewport, Qt::LeftButton, {}, start);
        QTest::mouseMove(viewport, start + QPoint(0, 20));
        QTest::mouseMove(viewport, start + QPoint(0, 40));
        QVERIFY(m_editor->matrix()(2, 2) < sample()(2, 2));
        QTest::keyClick(m_editor->tableView(), Qt::Key_Escape);
        QCOMPARE(finished.count(), 1);
        QVERIFY(m_editor->matrix()(2, 2) == sample()(2, 2));
        QVERIFY(changing.last()[2].toFloat() == sample()(2, 2)); // the owner is told too
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, start + QPoint(0, 40));
        QCOMPARE(finished.count(), 1);
    }

    void setMatrixKeepsAScrubAndTheSelection()
    {
        QSignalSpy changing(m_editor.get(), &ui::MatrixEditor::cellChanging);
        QWidget* viewport = m_editor->tableView()->viewport();
        const QPoint start = m_editor->tableView()->visualRect(cell(*m_editor, 0, 1)).center();
        QTest::mousePress(viewport, Qt::LeftButton, {}, start);
        QTest::mouseMove(viewport, start - QPoint(0, 20));
        const float live = m_editor->matrix()(0, 1);
        QVERIFY(live > sample()(0, 1));

        // The owner answers with its document, which may lag one move behind.
        Matrix stale = sample();
        stale(2, 2) = 9.0f;
        m_editor->setMatrix(stale, {"the", "cat", "sat"});
        QVERIFY(m_editor->isScrubbing());
        QVERIFY(m_editor->matrix()(0, 1) == live);
        QVERIFY(m_editor->matrix()(2, 2) == 9.0f);
        QCOMPARE(m_editor->tableView()->currentIndex(), cell(*m_editor, 0, 1));

        QTest::mouseMove(viewport, start - QPoint(0, 40));
        QVERIFY(changing.last()[2].toFloat() > live);
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, start - QPoint(0, 40));
        QVERIFY(!m_editor->isScrubbing());
    }

    void arrowKeysMoveTheSelection()
    {
        QTableView* view = m_editor->tableView();
        view->setFocus();
        view->setCurrentIndex(cell(*m_editor, 0, 0));
        QTest::keyClick(view, Qt::Key_Right);
        QTest::keyClick(view, Qt::Key_Down);
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex(), cell(*m_editor, 2, 1));
        QVERIFY(m_editor->statusText().contains(QStringLiteral("sat")));
    }

    void copyAndPasteAValue()
    {
        QTableView* view = m_editor->tableView();
        QSignalSpy edited(m_editor.get(), &ui::MatrixEditor::cellEdited);
        view->setFocus();
        view->setCurrentIndex(cell(*m_editor, 1, 2));
        QTest::keySequence(view, QKeySequence::Copy);
        view->setCurrentIndex(cell(*m_editor, 0, 0));
        QTest::keySequence(view, QKeySequence::Paste);
        QCOMPARE(edited.count(), 1);
        QVERIFY(m_editor->matrix()(0, 0) == -0.125f);
    }

    void wholeMatrixOperations()
    {
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        Matrix wide(2, 3);
        wide << 1, 2, 3, 4, 5, 6;
        m_editor->setMatrix(wide);

        m_editor->setIdentity();
        Matrix identity(2, 3);
        identity << 1, 0, 0, 0, 1, 0;
        QCOMPARE(m_editor->matrix(), identity);
        QCOMPARE(replaced.last()[0].value<Matrix>(), identity);
        QVERIFY(replaced.last()[1].toString().startsWith(QStringLiteral("Identity W^q")));

        m_editor->setZero();
        QCOMPARE(m_editor->matrix(), Matrix(Matrix::Zero(2, 3)));

        Matrix square(2, 2);
        square << 1, 2, 3, 4;
        m_editor->setMatrix(square);
        QVERIFY(m_editor->transposeAction()->isEnabled());
        m_editor->transpose();
        Matrix transposed(2, 2);
        transposed << 1, 3, 2, 4;
        QCOMPARE(m_editor->matrix(), transposed);
        QVERIFY(replaced.last()[1].toString().startsWith(QStringLiteral("Transpose")));

        m_editor->scaleBy(-2.0);
        QCOMPARE(m_editor->matrix(), Matrix(-2.0f * transposed));
        QCOMPARE(replaced.count(), 4);

        QSignalSpy errors(m_editor.get(), &ui::MatrixEditor::errorOccurred);
        m_editor->scaleBy(1e30);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(replaced.count(), 4);
        QCOMPARE(m_editor->matrix(), Matrix(-2.0f * transposed));
    }

    void transposeOnlyForSquare()
    {
        Matrix wide(2, 3);
        wide << 1, 2, 3, 4, 5, 6;
        m_editor->setMatrix(wide);
        QVERIFY(!m_editor->transposeAction()->isEnabled());
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        QSignalSpy errors(m_editor.get(), &ui::MatrixEditor::errorOccurred);
        m_editor->transpose();
        QCOMPARE(replaced.count(), 0);
        QCOMPARE(errors.count(), 1);
        QCOMPARE(m_editor->matrix(), wide);
        m_editor->setMatrix(sample());
        QVERIFY(m_editor->transposeAction()->isEnabled());
    }

    void randomizeIsSeededAndAdvances()
    {
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        m_editor->setSeed(41);
        m_editor->randomize();
        QCOMPARE(m_editor->seed(), std::uint64_t(42));
        const Matrix first = m_editor->matrix();
        const float limit = std::sqrt(6.0f / 6.0f); // Xavier: sqrt(6 / (rows + columns))
        QVERIFY(first.cwiseAbs().maxCoeff() <= limit);
        QVERIFY(first != sample());
        QVERIFY(replaced.last()[1].toString().contains(QStringLiteral("41")));
        m_editor->randomize();
        QVERIFY(m_editor->matrix() != first);
        m_editor->setSeed(41);
        m_editor->randomize();
        QCOMPARE(m_editor->matrix(), first);
    }

    void importWrongShapeChangesNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("wide.npy"));
        core::writeMatrixFile(path, Matrix::Constant(3, 5, 1.0f));
        QSignalSpy errors(m_editor.get(), &ui::MatrixEditor::errorOccurred);
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        QVERIFY(!m_editor->importFile(path));
        QCOMPARE(errors.count(), 1);
        const QString message = errors[0][0].toString();
        QVERIFY2(message.contains(QStringLiteral("wide.npy")) &&
                     message.contains(QStringLiteral("3 \u00d7 5")) &&
                     message.contains(QStringLiteral("3 \u00d7 3")),
                 qPrintable(message));
        QCOMPARE(replaced.count(), 0);
        QCOMPARE(m_editor->matrix(), sample());
    }

    void importNonFiniteChangesNothing()
    {
        QTemporaryDir dir;
        Matrix bad = sample();
        bad(1, 2) = std::numeric_limits<float>::quiet_NaN();
        const QString nanPath = dir.filePath(QStringLiteral("nan.npy"));
        core::writeMatrixFile(nanPath, bad);
        bad(1, 2) = 1e30f;
        const QString hugePath = dir.filePath(QStringLiteral("huge.csv"));
        core::writeMatrixFile(hugePath, bad);
        QSignalSpy errors(m_editor.get(), &ui::MatrixEditor::errorOccurred);
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        QVERIFY(!m_editor->importFile(nanPath));
        QVERIFY(!m_editor->importFile(hugePath));
        QVERIFY(!m_editor->importFile(dir.filePath(QStringLiteral("missing.npy"))));
        QCOMPARE(errors.count(), 3);
        QVERIFY2(errors[0][0].toString().contains(QStringLiteral("NaN")),
                 qPrintable(errors[0][0].toString()));
        QCOMPARE(replaced.count(), 0);
        QCOMPARE(m_editor->matrix(), sample());
    }

    void importAndExport()
    {
        QTemporaryDir dir;
        Matrix other(3, 3);
        other << 9, 8, 7, 6, 5, 4, 3, 2, 1;
        const QString tensors = dir.filePath(QStringLiteral("model.safetensors"));
        core::writeFileAtomically(
            tensors, core::safetensorsBytes({{"a", Matrix::Zero(2, 2)}, {"b", other}}));
        QSignalSpy replaced(m_editor.get(), &ui::MatrixEditor::matrixReplaced);
        QSignalSpy errors(m_editor.get(), &ui::MatrixEditor::errorOccurred);
        // Two tensors and no name: the message lists them, and nothing changes.
        QVERIFY(!m_editor->importFile(tensors));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(errors[0][0].toString().contains(QStringLiteral("b")),
                 qPrintable(errors[0][0].toString()));
        QVERIFY(m_editor->importFile(tensors, QStringLiteral("b")));
        QCOMPARE(m_editor->matrix(), other);
        QCOMPARE(replaced.count(), 1);
        QVERIFY(replaced[0][1].toString().startsWith(QStringLiteral("Import model.safetensors")));

        for (const char* name : {"out.npy", "out.csv", "out.safetensors"}) {
            const QString path = dir.filePath(QLatin1String(name));
            QVERIFY(m_editor->exportFile(path));
            QCOMPARE(core::readMatrixFile(path), other);
        }
        QVERIFY(!m_editor->exportFile(dir.filePath(QStringLiteral("no/such/dir/out.npy"))));
        QCOMPARE(errors.count(), 2);

        // One row of numbers fills a column vector of the same length.
        m_editor->setMatrix(Matrix::Zero(3, 1));
        const QString csv = dir.filePath(QStringLiteral("row.csv"));
        core::writeFileAtomically(csv, QByteArray("1,2,3\n"));
        QVERIFY(m_editor->importFile(csv));
        Matrix column(3, 1);
        column << 1, 2, 3;
        QCOMPARE(m_editor->matrix(), column);
    }

    void largeMatrixStaysFluid()
    {
        // 512 x 64 (a vocabulary's embeddings): replacing the values and repainting, and a
        // scrub step, must take a frame or two, not seconds.
        Matrix big = Matrix::Random(512, 64);
        QElapsedTimer timer;
        timer.start();
        m_editor->setMatrix(big);
        m_editor->tableView()->viewport()->repaint();
        const qint64 reset = timer.restart();
        for (int k = 0; k < 20; ++k) {
            big(0, 0) = float(k) * 0.01f;
            m_editor->setMatrix(big);
            m_editor->tableView()->viewport()->repaint();
        }
        const qint64 perUpdate = timer.elapsed() / 20;
        qInfo("512 x 64: %lld ms to show, %lld ms per in-place update", reset, perUpdate);
        QVERIFY2(reset < 500, qPrintable(QStringLiteral("first display took %1 ms").arg(reset)));
        QVERIFY2(perUpdate < 50, qPrintable(QStringLiteral("an update took %1 ms").arg(perUpdate)));
        QCOMPARE(m_editor->matrix(), big);
    }

    // The number fields beside the editors (ui/widgets integer_field, decimal_field): a whole
    // number typed past the range stays as typed until Enter, then the old value is kept and
    // the field says why, in the C locale's digits.
    void numberFieldsSayWhyATypedNumberIsRefused()
    {
        ui::IntegerField width(QStringLiteral("d_model"));
        width.setLocale(QLocale::c());
        width.setRange(1, 8192);
        width.setValue(16);
        width.setKeyboardTracking(false); // as the panels set it: the value waits for Enter
        QCOMPARE(
            typeAndEnter(width, QStringLiteral("9000")),
            QStringLiteral("d_model: 9000 is more than 8192, the largest possible; it stays 16"));
        QCOMPARE(width.value(), 16);
        QCOMPARE(typeAndEnter(width, QStringLiteral("0")),
                 QStringLiteral("d_model: 0 is less than 1, the smallest possible; it stays 16"));

        ui::DecimalField temperature(QStringLiteral("Temperature"));
        temperature.setLocale(QLocale::c());
        temperature.setRange(0.01, 100.0);
        temperature.setValue(1.0);
        temperature.setKeyboardTracking(false);
        QCOMPARE(
            typeAndEnter(temperature, QStringLiteral("250")),
            QStringLiteral("Temperature: 250 is more than 100, the largest possible; it stays 1"));
        QCOMPARE(temperature.value(), 1.0);
        QCOMPARE(typeAndEnter(temperature, QStringLiteral("0.001")),
                 QStringLiteral(
                     "Temperature: 0.001 is less than 0.01, the smallest possible; it stays 1"));
    }

private:
    std::unique_ptr<ui::MatrixEditor> m_editor;
};

QTEST_MAIN(TestMatrixEditor)
#include "tst_matrix_editor.moc"
