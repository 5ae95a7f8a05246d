// Every file the app writes goes through core/atomic_file: regular files are replaced whole or
// not at all, FIFOs and devices are written through (never replaced by a regular file), and a
// failure names its cause. Special files are made in a temporary folder, never /dev.
#include "core/atomic_file.h"
#include "core/error.h"
#include "support/error_of.h"
#include "support/file_size_limit.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <functional>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace core = attn::core;

namespace {

using attn::test::errorOf;
using attn::test::FileSizeLimit;

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

void put(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

mode_t modeOf(const QString& path, bool follow = true)
{
    struct stat status
    {
    };
    const QByteArray native = QFile::encodeName(path);
    if ((follow ? ::stat(native.constData(), &status) : ::lstat(native.constData(), &status)) != 0)
        return 0;
    return status.st_mode;
}

// The folder's entries: a failed write must leave no temporary file behind.
QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(
        QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

} // namespace

class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void replacesARegularFileKeepingItsMode()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("scene.json"));
        put(path, "old");
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
        core::writeFileAtomically(path, "new");
        QCOMPARE(contents(path), QByteArray("new"));
        QCOMPARE(modeOf(path) & 07777, mode_t(0640));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("scene.json")});
    }

    void keepsASymbolicLinkAndReplacesItsTarget()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("real.json"));
        const QString link = dir.filePath(QStringLiteral("link.json"));
        put(target, "old");
        QVERIFY(QFile::link(target, link));
        core::writeFileAtomically(link, "new");
        QVERIFY(S_ISLNK(modeOf(link, false)));
        QCOMPARE(contents(target), QByteArray("new"));
    }

    // Renaming over a FIFO would replace it with a regular file (the probe: exit 0, FIFO gone).
    void writesThroughAFifo()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("pipe"));
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QByteArray received;
        std::thread reader([&] {
            const int fd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY);
            char buffer[4096];
            for (ssize_t n; fd >= 0 && (n = ::read(fd, buffer, sizeof buffer)) > 0;)
                received.append(buffer, n);
            if (fd >= 0)
                ::close(fd);
        });
        const QByteArray bytes =
            QByteArray("every intermediate\n").repeated(10000); // more than a pipe holds
        const QString error = errorOf([&] { core::writeFileAtomically(fifo, bytes); });
        reader.join();
        QCOMPARE(error, QString());
        QCOMPARE(received, bytes);
        QVERIFY(S_ISFIFO(modeOf(fifo)));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("pipe")});
    }

    // A pseudo-terminal is a character device: written through, through a link in the
    // temporary folder (the device node itself is the one the kernel made for this test).
    void writesThroughACharacterDevice()
    {
        const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
            QSKIP("no pseudo-terminals here");
        QTemporaryDir dir;
        const QString link = dir.filePath(QStringLiteral("terminal"));
        QVERIFY(QFile::link(QString::fromLocal8Bit(::ptsname(master)), link));
        core::writeFileAtomically(link, "hello\n");
        char buffer[64] = {};
        QString echoed;
        for (int tries = 0; tries < 50 && !echoed.contains(QLatin1String("hello")); ++tries) {
            const ssize_t n = ::read(master, buffer, sizeof buffer - 1);
            if (n > 0)
                echoed += QString::fromLatin1(buffer, int(n));
        }
        const mode_t mode = modeOf(link); // while the terminal exists
        ::close(master);
        QVERIFY(echoed.contains(QLatin1String("hello")));
        QVERIFY(S_ISLNK(modeOf(link, false)));
        QVERIFY(S_ISCHR(mode));
    }

    void failuresNameTheirCause_data()
    {
        QTest::addColumn<QString>("relative");
        QTest::addColumn<QString>("cause");
        QTest::addRow("a folder") << "folder"
                                  << "Is a directory";
        QTest::addRow("in a missing folder") << "missing/out.json"
                                             << "No such file or directory";
        QTest::addRow("under a file") << "file.txt/out.json"
                                      << "Not a directory";
    }

    void failuresNameTheirCause()
    {
        QFETCH(QString, relative);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
        put(dir.filePath(QStringLiteral("file.txt")), "old");
        const QString path = dir.filePath(relative);
        QCOMPARE(errorOf([&] { core::writeFileAtomically(path, "new"); }),
                 QStringLiteral("cannot write %1: %2").arg(path, cause));
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral("file.txt"), QStringLiteral("folder")}));
        QCOMPARE(contents(dir.filePath(QStringLiteral("file.txt"))), QByteArray("old"));
    }

    void readOnlyFolderSaysSo()
    {
        if (::geteuid() == 0)
            QSKIP(
                "root writes into read-only folders; the cause is the system's message either way");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.json"));
        put(path, "old");
        QVERIFY(::chmod(QFile::encodeName(dir.path()).constData(), 0555) == 0);
        const QString error = errorOf([&] { core::writeFileAtomically(path, "new"); });
        ::chmod(QFile::encodeName(dir.path()).constData(), 0755);
        QCOMPARE(error, QStringLiteral("cannot write %1: Permission denied").arg(path));
        QCOMPARE(contents(path), QByteArray("old"));
    }

    // A write stopped half-way (as by a full disk): the old file intact, the cause named (not
    // "Unknown error"), no temporary file left.
    void aWriteStoppedHalfWayKeepsTheOldFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("figure.png"));
        put(path, "the figure from last week");
        QString error;
        {
            FileSizeLimit limit(4096);
            error = errorOf([&] { core::writeFileAtomically(path, QByteArray(1 << 20, 'x')); });
        }
        QCOMPARE(error, QStringLiteral("cannot write %1: File too large").arg(path));
        QCOMPARE(contents(path), QByteArray("the figure from last week"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("figure.png")});
    }

    // --export-all's set: all files or none. The third target is a folder, found before any
    // file is written; the second too large to write, found before any is replaced.
    void aSetIsWrittenWholeOrNotAtAll()
    {
        QTemporaryDir dir;
        const QString a = dir.filePath(QStringLiteral("a.png")),
                      b = dir.filePath(QStringLiteral("b.png")),
                      c = dir.filePath(QStringLiteral("c.png"));
        put(a, "old a");
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("c.png")));
        QCOMPARE(errorOf([&] {
                     core::writeFilesAtomically({{a, "new a"}, {b, "new b"}, {c, "new c"}});
                 }),
                 QStringLiteral("cannot write %1: Is a directory").arg(c));
        QCOMPARE(contents(a), QByteArray("old a"));
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral("a.png"), QStringLiteral("c.png")}));

        QString error;
        {
            FileSizeLimit limit(4096);
            error = errorOf([&] {
                core::writeFilesAtomically({{a, "new a"}, {b, QByteArray(1 << 20, 'b')}});
            });
        }
        QCOMPARE(error, QStringLiteral("cannot write %1: File too large").arg(b));
        QCOMPARE(contents(a), QByteArray("old a"));
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral("a.png"), QStringLiteral("c.png")}));

        core::writeFilesAtomically({{a, "new a"}, {b, "new b"}});
        QCOMPARE(contents(a), QByteArray("new a"));
        QCOMPARE(contents(b), QByteArray("new b"));
    }

    // A write killed half-way (here by SIGXFSZ, as `ulimit -f` kills a command line whose
    // output outgrows it) leaves its temporary file: the next write to the same file removes
    // it. Temporaries of other files stay, and so does one a live process is writing (it holds
    // the temporary's lock).
    void aKilledWriteIsCleanedUpByTheNext()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(QStringLiteral("out.json"));
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("--write-until-killed"), target});
        QVERIFY(child.waitForFinished(20000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        const QStringList left = entries(dir.path());
        QCOMPARE(left.size(), 1);
        QVERIFY2(QRegularExpression(QStringLiteral("^\\.out\\.json\\.[0-9a-z]{1,7}\\.part$"))
                     .match(left.front())
                     .hasMatch(),
                 qPrintable(left.front()));
        QCOMPARE(QFileInfo(dir.filePath(left.front())).size(), 4096);

        put(dir.filePath(QStringLiteral(".other.json.abc.part")), "another file's");
        const QString live = dir.filePath(QStringLiteral(".out.json.live1.part"));
        put(live, "being written");
        const int writer = ::open(QFile::encodeName(live).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(writer >= 0);
        QCOMPARE(::flock(writer, LOCK_EX | LOCK_NB), 0);
        core::writeFileAtomically(target, "{}");
        ::close(writer);
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral(".other.json.abc.part"),
                              QStringLiteral(".out.json.live1.part"), QStringLiteral("out.json")}));
        QCOMPARE(contents(target), QByteArray("{}"));
        // Its writer gone, the next write takes it away too.
        core::writeFileAtomically(target, "[]");
        QCOMPARE(entries(dir.path()),
                 (QStringList{QStringLiteral(".other.json.abc.part"), QStringLiteral("out.json")}));
    }

    // A header and a body written as one file, the body not copied.
    void partsMakeOneFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("copy.json"));
        const QByteArray header("{\"kind\":\"scene\"}\n"), body("{\"version\": 1}");
        core::writeFileAtomically(path, std::vector<QByteArrayView>{header, body});
        QCOMPARE(contents(path), QByteArray("{\"kind\":\"scene\"}\n{\"version\": 1}"));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("copy.json")});
    }

    void createFoldersNamesTheCause()
    {
        QTemporaryDir dir;
        put(dir.filePath(QStringLiteral("file")), "x");
        const QString nested = dir.filePath(QStringLiteral("a/b/c"));
        core::createFolders(nested);
        QVERIFY(QFileInfo(nested).isDir());
        core::createFolders(nested); // already there
        const QString under = dir.filePath(QStringLiteral("file/sub"));
        QCOMPARE(errorOf([&] { core::createFolders(under); }),
                 QStringLiteral("cannot create the folder %1: %2: Not a directory")
                     .arg(under, dir.filePath(QStringLiteral("file"))));
    }
};

// The child of aKilledWriteIsCleanedUpByTheNext(): writes 1 MiB under a 4 KiB file size
// limit with SIGXFSZ at its default action, which kills it half-way.
int writeUntilKilled(const QString& path)
{
    rlimit none{0, 0};
    ::setrlimit(RLIMIT_CORE, &none);
    rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::signal(SIGXFSZ, SIG_DFL);
    try {
        core::writeFileAtomically(path, QByteArray(1 << 20, 'x'));
    } catch (const std::exception&) {
    }
    return 0; // not killed: the parent sees a normal exit and fails
}

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc == 3 && QByteArray(argv[1]) == "--write-until-killed")
        return writeUntilKilled(QString::fromLocal8Bit(argv[2]));
    TestAtomicFile test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_atomic_file.moc"
