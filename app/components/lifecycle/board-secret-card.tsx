import { useTranslation } from "react-i18next";
import { Alert, AlertDescription, AlertTitle } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

export type IssuedBoardSecret = { id: number; serialNumber: string; secret: string; qrSvg: string };

/**
 * The board secret right after it was issued: the only time anyone sees it. The QR code carries the
 * board id and secret for the installer's phone; the download is a small text file for the board.
 */
export function BoardSecretCard({ issued }: { issued: IssuedBoardSecret }) {
  const { t } = useTranslation("lifecycle");
  const file = `board_id=${issued.id}\nserial_number=${issued.serialNumber}\nboard_secret=${issued.secret}\n`;
  return (
    <Card data-testid="board-secret">
      <CardHeader>
        <CardTitle>{t("secretTitle")}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-[auto_1fr]">
        {/* The SVG is generated on the server from our own data (qrcode), never from user markup. */}
        <div className="size-48 rounded border bg-white p-2" role="img" aria-label={t("secretQr")} dangerouslySetInnerHTML={{ __html: issued.qrSvg }} />
        <div className="grid content-start gap-3">
          <Alert variant="warning">
            <AlertTitle>{t("secretOnce")}</AlertTitle>
            <AlertDescription>{t("secretOnceHint")}</AlertDescription>
          </Alert>
          <dl className="grid gap-1 text-sm">
            <dt className="text-muted-foreground">{t("boardId")}</dt>
            <dd className="font-mono" data-testid="board-id">
              {issued.id}
            </dd>
            <dt className="text-muted-foreground">{t("boardSecret")}</dt>
            <dd className="font-mono break-all select-all" data-testid="board-secret-value">
              {issued.secret}
            </dd>
          </dl>
          <Button asChild variant="outline" className="w-fit">
            <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download={`board-${issued.id}-secret.txt`}>
              {t("downloadSecret")}
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
