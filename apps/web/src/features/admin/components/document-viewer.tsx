import type { KycDocument } from '@meridian/contracts/kyc';
import { Empty, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { kycDocumentUrl } from '../api/kyc-document-url.ts';

/** One document: an image inline, a PDF in a frame, anything else as a download link. */
function DocumentView({ document }: { document: KycDocument }) {
  const { t } = useTranslation('admin');
  const url = kycDocumentUrl(document.id);
  if (document.mimeType.startsWith('image/')) {
    return <img className="admin-document-image" src={url} alt={document.fileName} />;
  }
  if (document.mimeType === 'application/pdf') {
    return <iframe className="admin-document-frame" src={url} title={document.fileName} />;
  }
  return (
    <Typography.Link href={url} target="_blank" rel="noopener">
      {t('kyc.openDocument', { name: document.fileName })}
    </Typography.Link>
  );
}

/** The submission's documents, one tab each, read from `admin/kyc/documents/:id`. */
export function DocumentViewer({ documents }: { documents: readonly KycDocument[] }) {
  const { t } = useTranslation('admin');
  if (documents.length === 0) return <Empty description={t('kyc.noDocuments')} />;
  return (
    <Tabs
      items={documents.map((document) => ({
        key: document.id,
        label: t(`documentKinds.${document.kind}`, { defaultValue: document.kind }),
        children: <DocumentView document={document} />,
      }))}
    />
  );
}
