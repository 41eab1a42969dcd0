import type { KycDocument, KycDocumentKind } from '@meridian/contracts/kyc';
import { kycEndpoints } from '@meridian/contracts/kyc';
import { API_BASE_PATH } from '@meridian/contracts/http';
import { endpointPath } from '@meridian/contracts/endpoint';
import { Button, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadKycDocument } from '../api/upload-document.ts';

/** Types the uploads platform accepts (checked again by content on the server; docs/kyc.md "Files"). */
const ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';

interface DocumentUploadProps {
  kind: KycDocumentKind;
  label: string;
  /** The document of this kind on file, if any. */
  current: KycDocument | undefined;
  /** Called with the documents the server stored. */
  onUploaded: (documents: KycDocument[]) => void;
}

/**
 * One document of basic KYC with Ant Design `Upload` (docs/kyc.md "Web"): preview of the chosen
 * or stored file, upload progress, and the server's refusal shown on the file and under it.
 */
export function DocumentUpload({ kind, label, current, onUploaded }: DocumentUploadProps) {
  const { t } = useTranslation('kyc');
  const [fileList, setFileList] = useState<UploadFile[]>(() =>
    current
      ? [
          {
            uid: current.id,
            name: current.fileName,
            status: 'done',
            url: documentUrl(current.id),
            thumbUrl: current.mimeType.startsWith('image/') ? documentUrl(current.id) : undefined,
          },
        ]
      : [],
  );
  const [error, setError] = useState<string | null>(null);

  return (
    <div className="kyc-upload-row" data-testid={`kyc-doc-${kind}`}>
      <Typography.Text strong>{label}</Typography.Text>
      <Upload
        accept={ACCEPT}
        listType="picture"
        maxCount={1}
        fileList={fileList}
        onChange={({ fileList: next }) => setFileList(next.slice(-1))}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          setError(null);
          void uploadKycDocument(
            kind,
            file as File,
            (percent) => onProgress?.({ percent }),
            t('basic.uploadFailed'),
          ).then((outcome) => {
            if (outcome.isOk) {
              onSuccess?.(outcome.documents);
              onUploaded(outcome.documents);
            } else {
              setError(outcome.message);
              // A string response is the text Ant Design shows on the failed file.
              onError?.(new Error(outcome.message), outcome.message);
            }
          });
        }}
      >
        <Button style={{ marginTop: 8 }}>{t('basic.upload')}</Button>
      </Upload>
      {error && (
        <Typography.Text type="danger" data-testid={`kyc-doc-error-${kind}`}>
          {error}
        </Typography.Text>
      )}
    </div>
  );
}

function documentUrl(id: string): string {
  return `${API_BASE_PATH}${endpointPath(kycEndpoints.readDocument, { id })}`;
}

/**
 * One `DocumentUpload` per kind, in order, over the documents on file (`documents`, the newest of
 * each kind). `onChange` receives an updater: a newly stored document replaces the one of its kind.
 */
export function DocumentUploads({
  kinds,
  labelOf,
  documents,
  onChange,
}: {
  kinds: readonly KycDocumentKind[];
  labelOf: (kind: KycDocumentKind) => string;
  documents: readonly KycDocument[];
  onChange: (update: (before: KycDocument[]) => KycDocument[]) => void;
}) {
  return kinds.map((kind) => (
    <DocumentUpload
      key={kind}
      kind={kind}
      label={labelOf(kind)}
      current={documents.find((document) => document.kind === kind)}
      onUploaded={(stored) =>
        onChange((before) => [
          ...before.filter((document) => !stored.some((each) => each.kind === document.kind)),
          ...stored,
        ])
      }
    />
  ));
}
