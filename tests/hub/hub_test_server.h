#pragma once

// A loopback stand-in for the Hugging Face Hub, started by a test: the model API
// (/api/models/ID/revision/REV?blobs=true) and file downloads (/ID/resolve/REV/FILE) as the
// Hub answers them, with faults on request (redirect chains, dropped connections, wrong
// hashes, error statuses, a slow sender). Runs on the test's thread; one request per
// connection ("Connection: close").

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <memory>

namespace attn::test {

class HubTestServer : public QObject
{
public:
    struct Request
    {
        QByteArray path;
        QByteArray range;
        QByteArray authorization;
    };

    QString id = QStringLiteral("test-org/tiny-distilbert");
    QString commit = QStringLiteral("0123456789abcdef0123456789abcdef01234567");
    QMap<QString, QByteArray> files; // served in this order

    // Faults.
    int apiStatus = 200;
    QByteArray apiErrorCode;       // X-Error-Code with apiStatus
    QMap<QString, int> fileStatus; // a status for a file's resolve instead of its bytes
    QStringList wrongSha256;       // files whose listed sha256 is not theirs
    int redirects = 0;             // LFS files reach /cdn/FILE through this many redirects
    QString dropFile;              // sends dropAfter bytes of it, then closes the connection
    qint64 dropAfter = 0;
    int drops = 0;    // how many of its requests are dropped so
    QString slowFile; // sent one byte each slowIntervalMs
    int slowIntervalMs = 20;
    bool ignoreRange = false;

    QList<Request> requests;

    // The files of a test checkpoint folder, those the Hub would list, plus a file the
    // explorer must not fetch (a PyTorch pickle).
    explicit HubTestServer(const QString& modelFolder)
    {
        const QDir folder(modelFolder);
        for (const QString& name : folder.entryList(QDir::Files, QDir::Name)) {
            if (name == QLatin1String("expected.json"))
                continue;
            QFile file(folder.filePath(name));
            if (file.open(QIODevice::ReadOnly))
                files.insert(name, file.readAll());
        }
        files.insert(QStringLiteral("pytorch_model.bin"), QByteArray("not to be fetched"));
        m_server.listen(QHostAddress::LocalHost);
        QObject::connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* socket = m_server.nextPendingConnection())
                accept(socket);
        });
    }

    QString endpoint() const
    {
        return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort());
    }

    static bool isLfs(const QString& name) { return name.endsWith(QLatin1String(".safetensors")); }

    QByteArray apiAnswer() const
    {
        QJsonArray siblings;
        for (auto it = files.begin(); it != files.end(); ++it) {
            QJsonObject sibling{{"rfilename", it.key()}, {"size", it.value().size()}};
            if (isLfs(it.key())) {
                QByteArray sha = QCryptographicHash::hash(it.value(), QCryptographicHash::Sha256);
                if (wrongSha256.contains(it.key()))
                    sha[0] = static_cast<char>(sha[0] ^ 1);
                sibling["blobId"] = QStringLiteral("ab").repeated(20); // the pointer's blob
                sibling["lfs"] = QJsonObject{{"sha256", QString::fromLatin1(sha.toHex())},
                                             {"size", it.value().size()},
                                             {"pointerSize", 134}};
            } else {
                QCryptographicHash blob(QCryptographicHash::Sha1);
                blob.addData("blob " + QByteArray::number(it.value().size()) + '\0');
                blob.addData(it.value());
                sibling["blobId"] = QString::fromLatin1(blob.result().toHex());
            }
            siblings.append(sibling);
        }
        return QJsonDocument(QJsonObject{{"id", id}, {"sha", commit}, {"siblings", siblings}})
            .toJson(QJsonDocument::Compact);
    }

private:
    void accept(QTcpSocket* socket)
    {
        auto buffer = std::make_shared<QByteArray>();
        QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        QObject::connect(socket, &QTcpSocket::readyRead, this, [this, socket, buffer] {
            buffer->append(socket->readAll());
            const qsizetype end = buffer->indexOf("\r\n\r\n");
            if (end < 0 || buffer->isEmpty())
                return;
            const QList<QByteArray> lines = buffer->left(end).split('\n');
            buffer->clear();
            Request request;
            request.path = lines.value(0).split(' ').value(1);
            for (const QByteArray& line : lines) {
                const QByteArray lower = line.toLower();
                if (lower.startsWith("range:"))
                    request.range = line.mid(6).trimmed();
                if (lower.startsWith("authorization:"))
                    request.authorization = line.mid(14).trimmed();
            }
            requests << request;
            answer(socket, request);
        });
    }

    static void send(QTcpSocket* socket, int status, const QByteArray& reason,
                     const QByteArray& headers, const QByteArray& body)
    {
        socket->write("HTTP/1.1 " + QByteArray::number(status) + ' ' + reason + "\r\n" + headers +
                      "Content-Length: " + QByteArray::number(body.size()) +
                      "\r\nConnection: close\r\n\r\n" + body);
        socket->disconnectFromHost();
    }

    void answer(QTcpSocket* socket, const Request& request)
    {
        const QByteArray api = "/api/models/" + id.toUtf8() + "/revision/";
        const QByteArray resolve = "/" + id.toUtf8() + "/resolve/";
        if (request.path.startsWith(api)) {
            if (apiStatus != 200)
                send(socket, apiStatus, "Error",
                     apiErrorCode.isEmpty() ? QByteArray()
                                            : "X-Error-Code: " + apiErrorCode + "\r\n",
                     "{\"error\":\"refused\"}");
            else
                send(socket, 200, "OK", "Content-Type: application/json\r\n", apiAnswer());
            return;
        }
        QString name;
        if (request.path.startsWith(resolve + commit.toUtf8() + '/'))
            name = QString::fromUtf8(request.path.mid(resolve.size() + commit.size() + 1));
        else if (request.path.startsWith("/redirect/")) {
            const QList<QByteArray> parts = request.path.split('/'); // "", redirect, N, FILE
            const int step = parts.value(2).toInt();
            name = QString::fromUtf8(parts.value(3));
            send(socket, 302, "Found",
                 "Location: " +
                     (step < redirects ? "/redirect/" + QByteArray::number(step + 1) + '/'
                                       : QByteArray("/cdn/")) +
                     name.toUtf8() + "\r\n",
                 QByteArray());
            return;
        } else if (request.path.startsWith("/cdn/"))
            name = QString::fromUtf8(request.path.mid(5));
        if (!files.contains(name)) {
            send(socket, 404, "Not Found", "X-Error-Code: EntryNotFound\r\n", "{}");
            return;
        }
        if (fileStatus.contains(name)) {
            send(socket, fileStatus.value(name), "Error", QByteArray(), "{}");
            return;
        }
        if (isLfs(name) && redirects > 0 && !request.path.startsWith("/redirect/") &&
            !request.path.startsWith("/cdn/")) {
            send(socket, 302, "Found", "Location: /redirect/1/" + name.toUtf8() + "\r\n",
                 QByteArray());
            return;
        }
        serveFile(socket, name, request.range);
    }

    void serveFile(QTcpSocket* socket, const QString& name, const QByteArray& range)
    {
        const QByteArray& bytes = files[name];
        qint64 from = 0;
        if (range.startsWith("bytes=") && !ignoreRange)
            from = range.mid(6, range.indexOf('-') - 6).toLongLong();
        const QByteArray body = bytes.mid(from);
        QByteArray head = from > 0 ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes " +
                                         QByteArray::number(from) + '-' +
                                         QByteArray::number(bytes.size() - 1) + '/' +
                                         QByteArray::number(bytes.size()) + "\r\n"
                                   : QByteArray("HTTP/1.1 200 OK\r\n");
        head +=
            "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n";
        if (name == dropFile && drops > 0) {
            --drops;
            socket->write(head + body.left(dropAfter));
            socket->disconnectFromHost();
            return;
        }
        if (name == slowFile) {
            socket->write(head);
            auto* timer = new QTimer(socket);
            auto sent = std::make_shared<qint64>(0);
            QObject::connect(timer, &QTimer::timeout, socket, [socket, body, sent] {
                if (*sent < body.size())
                    socket->write(body.mid((*sent)++, 1));
            });
            timer->start(slowIntervalMs);
            return;
        }
        socket->write(head + body);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
};

} // namespace attn::test
